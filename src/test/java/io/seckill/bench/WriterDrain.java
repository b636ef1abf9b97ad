package io.seckill.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The writer's drain of a backlog and its limit, in leg 1 (H2) and leg 3 (PostgreSQL). The drain: the writer route
 * stopped over JMX, a backlog admitted straight into Redis with the admission script (ids 8000000000000000001…, buyers
 * 1…N), the writer started and the stream timed to empty (Harness drain), with the CPU each process spent per order
 * meanwhile and how long Redis's main thread ran and waited for a CPU. Its limit: the same rows written with raw JDBC
 * batches into a fresh database (Harness jdbc).
 */
final class WriterDrain {

    private static final String WRITER_ROUTE = "order-writer";

    /** The backlog's voucher (the baseline writes the same rows) and whence the drain's peak RSS counts. */
    record Result(long voucher, String rssFrom) {
    }

    private final RunContext context;
    private final BenchSettings settings;

    WriterDrain(RunContext context) {
        this.context = context;
        this.settings = context.settings();
    }

    /** The drain on LEG's service; POSTGRES adds the PostgreSQL processes' CPU per order. */
    Result run(ServiceLeg leg, String label, boolean postgres) throws Exception {
        int orders = settings.drainOrders();
        ServiceProcess service = leg.service();
        ChildProcesses.say("drain (" + label + "): stopping the writer, then " + orders
                + " orders admitted straight into Redis");
        context.steps().run(context.log("route-stop-" + label + ".txt"), null, "route", service.pid(), WRITER_ROUTE,
                "stop");
        long voucher = leg.newVoucher("drain " + label, orders);
        BacklogAdmission.admit(service, context.admitScript(), voucher, orders, ServiceLeg.PAYMENT_TIMEOUT_MILLIS,
                context.log("backlog-" + label + ".txt"));
        String rssFrom = ProcessReadings.resetPeakRss(service.pid()) ? "drain start" : "service start";
        ChildProcesses.say("drain (" + label + "): starting the writer on "
                + leg.redisInteger("XLEN", ServiceLeg.STREAM) + " entries");
        long redisPid = service.redisPid();
        long[] schedule = ProcessReadings.schedule(redisPid);
        long jvm = ProcessReadings.cpuMicros(service.pid());
        long redis = ProcessReadings.cpuMicros(redisPid);
        long pg = postgres ? ProcessReadings.postgresCpuMicros() : 0;
        Path file = context.log("drain-" + label + ".txt");
        context.steps().run(file, service.redisPassword(), "drain", service.pid(), service.redisPort(),
                ServiceLeg.STREAM, orders, WRITER_ROUTE);
        List<String> lines = new ArrayList<>(List.of(
                "cpu_us_per_order_jvm=" + perOrder(ProcessReadings.cpuMicros(service.pid()) - jvm, orders),
                "cpu_us_per_order_redis=" + perOrder(ProcessReadings.cpuMicros(redisPid) - redis, orders)));
        if (postgres) {
            lines.add("cpu_us_per_order_postgres=" + perOrder(ProcessReadings.postgresCpuMicros() - pg, orders));
        }
        long[] now = ProcessReadings.schedule(redisPid);
        lines.add("redis_ran_ms=" + (now[0] - schedule[0]) / 1_000_000);
        lines.add("redis_waited_ms=" + (now[1] - schedule[1]) / 1_000_000);
        ResultLines.append(file, lines.toArray(String[]::new));
        ChildProcesses.say("drain (" + label + "): " + ResultLines.read(file).get("drain_rate") + " orders/s; peak RSS "
                + ProcessReadings.peakRssMb(service.pid()) + " MB");
        return new Result(voucher, rssFrom);
    }

    /**
     * The drain's limit: VOUCHER's backlog written with raw JDBC at URL (as USER) in the service's batches, with its
     * own schema and insert statement; INTO says where, for the progress line.
     */
    void baseline(String label, String url, String user, String into, long voucher) throws Exception {
        ChildProcesses.say("raw JDBC baseline: " + settings.drainOrders() + " rows in batches of "
                + settings.batchSize() + " into " + into);
        context.steps().run(context.log("jdbc-baseline-" + label + ".txt"), null, "jdbc", url, user,
                settings.drainOrders(), settings.batchSize(), context.root().resolve("sql/schema.sql"),
                context.root().resolve("sql/insert-order.sql"), voucher);
    }

    private static String perOrder(long micros, int orders) {
        return Figures.decimals((double) micros / orders, 1);
    }
}
