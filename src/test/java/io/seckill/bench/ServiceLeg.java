package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * A service a leg of bench/run.sh measures ({@link BenchRun}): the service, its API, its safepoint log, and the
 * vouchers this leg made on it (for the database check).
 */
record ServiceLeg(ServiceProcess service, VoucherApi api, Path safepointLog, List<Long> vouchers) {

    /** One shard, so every order of the run is on this stream (the contract's key layout). */
    static final String STREAM = "seckill:{s0}:orders";
    /** The stock of a voucher that never runs out, and the largest backlog a drain can have. */
    static final long MAX_STOCK = 10_000_000;
    /**
     * The payment window of the throughput legs (1 to 3), longer than the run: with the service's default (15 min)
     * the warm-up's orders fell due while leg 1 still ran, their cancellations took CPU from the drain, and the check
     * counted rows cancelled after it had read what Redis sold (2026-11-23). Leg 4 measures the expiry.
     */
    static final List<String> THROUGHPUT_WINDOW = List.of("--seckill.order.payment-timeout=24h");
    /** The same window in the orders the bench admits straight into Redis. */
    static final long PAYMENT_TIMEOUT_MILLIS = 86_400_000;
    /** Every leg but 2b serves the API on Tomcat, as every run in bench/runs measured it (netty-http since ae5ab41). */
    static final List<String> TOMCAT = List.of("--seckill.api.engine=platform-http");
    static final List<String> NO_RATE_LIMITS = List.of("--seckill.rate-limit.per-buyer.rate=0",
            "--seckill.rate-limit.per-address.rate=0");
    private static final Duration STOP_GRACE = Duration.ofSeconds(90);

    /**
     * A fresh service from the jar in RUN/DIRECTORY: one stream shard; CONFIG left out of its Redis's refused commands
     * (the bench sets appendfsync and the latency monitor on the running server); its stop-the-world pauses logged.
     */
    @SafeVarargs
    static ServiceLeg start(RunContext context, String directory, String log, List<String>... arguments)
            throws Exception {
        Path folder = context.run().resolve(directory);
        ChildProcesses.say("starting the service in " + folder + ", log in " + context.log(log));
        Path safepoints = context.log(log.replaceFirst("\\.log$", "-safepoints.log"));
        List<String> options = new ArrayList<>(context.settings().javaOptions());
        options.add("-Xlog:safepoint=info:file=" + safepoints + "::filecount=0");
        List<String> all = new ArrayList<>(List.of("--seckill.stream.shards=1",
                "--seckill.redis.refused-commands=module,debug,acl,shutdown",
                "--seckill.stream.batch-size=" + context.settings().batchSize()));
        Stream.of(arguments).forEach(all::addAll);
        ServiceProcess service = ServiceProcess.start(context.processes(), context.jar(), options, folder,
                context.log(log), all, STOP_GRACE);
        return new ServiceLeg(service, new VoucherApi(service.base()), safepoints, new ArrayList<>());
    }

    long newVoucher(String title, long stock) throws Exception {
        long id = api.create("bench " + title, stock, null);
        vouchers.add(id);
        return id;
    }

    /** What Redis says each voucher of this leg sold, as VOUCHER=ROWS arguments for Harness verify. */
    List<String> soldPerVoucher() throws Exception {
        List<String> sold = new ArrayList<>();
        for (long id : vouchers) {
            sold.add(id + "=" + api.units(id).sold());
        }
        return sold;
    }

    long redisInteger(String... command) throws IOException {
        try (RespConnection redis = service.redis()) {
            return redis.integer(command);
        }
    }

    long deadLetters() throws IOException {
        return redisInteger("XLEN", STREAM + ":dead");
    }

    String redisInfo(String field) throws IOException {
        try (RespConnection redis = service.redis()) {
            return ((String) redis.call("INFO", "server")).lines().filter(l -> l.startsWith(field + ":"))
                    .map(l -> l.substring(field.length() + 1).strip()).findFirst().orElse("");
        }
    }

    String appendfsync() throws IOException {
        try (RespConnection redis = service.redis()) {
            return String.valueOf(((List<?>) redis.call("CONFIG", "GET", "appendfsync")).get(1));
        }
    }

    void appendfsync(String policy) throws IOException {
        try (RespConnection redis = service.redis()) {
            redis.call("CONFIG", "SET", "appendfsync", policy);
        }
    }

    /**
     * Has Redis rewrite its append-only file now and waits for the rewrite to end (or for one already under way).
     * Before each measured load (a steady load, and each wrk intake whose rate is compared: the levels, the rounds in
     * turn, the controller's as the service's): the file starts the measured time at its rewritten size, so Redis's
     * own rule (at the service's max-size, 1 GB, and doubled since the last rewrite) cannot fire inside it. Left to
     * where the loads before had brought the file, it fell inside some runs' minutes and not others' (a fork, then a
     * child writing the whole dataset on the same two CPUs: bench/runs/2026-11-29-exact-codec.md), and inside one
     * side's turn and not the other's.
     */
    void rewriteAppendOnlyFile() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(300).toNanos();
        try (RespConnection redis = service.redis()) {
            Object reply = redis.call("BGREWRITEAOF");
            if (String.valueOf(reply).startsWith("-") && !String.valueOf(reply).contains("in progress")) {
                throw new IOException("Redis refused BGREWRITEAOF: " + reply);
            }
            while (rewriting(redis)) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("Redis's append-only file rewrite did not end in 300 s");
                }
                Thread.sleep(100);
            }
        }
    }

    private static boolean rewriting(RespConnection redis) throws IOException {
        String persistence = (String) redis.call("INFO", "persistence");
        return persistence.contains("aof_rewrite_in_progress:1") || persistence.contains("aof_rewrite_scheduled:1");
    }

    /** The writer deletes an entry only after its row is committed: an empty stream is a written backlog. */
    void awaitStreamEmpty() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(600).toNanos();
        try (RespConnection redis = service.redis()) {
            while (redis.integer("XLEN", STREAM) != 0) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("the order stream did not empty in 600 s");
                }
                Thread.sleep(200);
            }
        }
    }
}
