package io.seckill.bench;

import java.util.List;

/**
 * What leg 1 measures the service's intake against, on the service's own Redis (bench/README.md, steps 6 and 7): the
 * plain Spring MVC controller (bench/reference), warmed up as long and measured at the same connection counts, and
 * the admission script alone in redis-benchmark, unpipelined and pipelined.
 */
final class IntakeReferences {

    private final RunContext context;
    private final BenchSettings settings;

    IntakeReferences(RunContext context) {
        this.context = context;
        this.settings = context.settings();
    }

    /** What the controller's intake found: its peak RSS in MB and its best connection count. */
    record Controller(long rssMb, int bestConnections) {
    }

    /** The controller's intake at each connection count. */
    Controller controller(ServiceLeg leg) throws Exception {
        ChildProcesses.say("reference: starting the plain Spring MVC controller on the service's Redis");
        ReferenceController.Running controller = context.reference().start(context.processes(),
                settings.javaOptions(), leg.service(), context.admitScript(), context.log("reference.log"));
        try {
            ChildProcesses.say("reference: warming up, " + settings.warmUpSeconds() + " s of wrk at 64 connections");
            context.wrk().run(controller.base(), leg.newVoucher("reference-warm-up", ServiceLeg.MAX_STOCK), 64,
                    settings.warmUpSeconds(), 202, "orders", false, context.log("wrk-reference-warm-up.txt"));
            WrkIntake.Best best = WrkIntake.best(settings.connections(), connections -> {
                ChildProcesses.say("reference: " + settings.intakeSeconds() + " s of wrk at " + connections
                        + " connections");
                leg.rewriteAppendOnlyFile();
                return context.wrk().run(controller.base(), leg.newVoucher("reference " + connections,
                        ServiceLeg.MAX_STOCK), connections, settings.intakeSeconds(), 202, "orders", false,
                        context.log("wrk-reference-" + connections + ".txt"));
            });
            long rss = ProcessReadings.peakRssMb(controller.process().pid());
            ChildProcesses.say("reference: best " + best.rate() + " accepted/s at " + best.connections()
                    + " connections; peak RSS " + rss + " MB");
            return new Controller(rss, best.connections());
        } finally {
            controller.stop();
        }
    }

    /** The admission script in redis-benchmark, BENCH_LIMIT_REQUESTS runs unpipelined, then as many pipelined. */
    void script(ServiceLeg leg) throws Exception {
        RedisBenchmark redisBenchmark = new RedisBenchmark(context.processes());
        for (int pipeline : List.of(1, settings.limitPipeline())) {
            ChildProcesses.say("intake limit: " + settings.limitRequests() + " admission scripts, "
                    + settings.limitClients() + " clients, "
                    + (pipeline == 1 ? "no pipelining" : "pipeline " + pipeline));
            String rate = redisBenchmark.admissionScriptRate(leg.service(), context.admitScript(),
                    settings.limitClients(), pipeline, settings.limitRequests(), ServiceLeg.PAYMENT_TIMEOUT_MILLIS,
                    context.log("redis-benchmark-" + (pipeline == 1 ? "unpipelined" : "pipelined") + ".csv"));
            ChildProcesses.say("intake limit: " + rate + "/s");
        }
    }
}
