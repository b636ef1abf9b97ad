package io.seckill.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

/**
 * The open-loop steady loads of a run, at a rate the leg chooses: the service's (Harness load) and its admission
 * script's alone, straight to its Redis (Harness script), each with what stalled Redis (and the JVM) during its
 * measured part and its picture beside the summary. Each starts on a freshly rewritten append-only file
 * ({@link ServiceLeg#rewriteAppendOnlyFile}), so that no run's minute holds Redis's own rewrite and another's not.
 */
final class SteadyLoads {

    private final RunContext context;
    private final BenchSettings settings;

    SteadyLoads(RunContext context) {
        this.context = context;
        this.settings = context.settings();
    }

    /** The service's steady load at RATE, one order in BENCH_E2E_SAMPLE_EVERY followed to its row. */
    void service(ServiceLeg leg, String label, int rate, String results) throws Exception {
        ChildProcesses.say("steady load (" + label + "): " + rate + " orders/s, unmeasured until steady ("
                + settings.e2eWarmUpSeconds() + "–" + settings.e2eWarmUpMaxSeconds() + " s), then "
                + settings.e2eSeconds() + " s, following one in " + settings.e2eSampleEvery() + " to its row");
        long voucher = leg.newVoucher("steady " + label, ServiceLeg.MAX_STOCK);
        leg.rewriteAppendOnlyFile();
        try (RespConnection redis = leg.service().redis()) {
            StallReports.resetRedisMonitor(redis);
        }
        Path file = context.log(results);
        context.steps().run(file, null, "load", leg.service().base(), voucher, rate, settings.e2eSeconds(),
                settings.e2eWarmUpSeconds(), settings.e2eWarmUpMaxSeconds(), settings.e2eSampleEvery(),
                settings.e2ePollMillis(), settings.e2eConnections());
        long from = Long.parseLong(ResultLines.read(file).get("load_measured_from_ms"));
        String redisStalls;
        try (RespConnection redis = leg.service().redis()) {
            redisStalls = StallReports.redisStalls(redis, from);
        }
        String jvmStalls = StallReports.jvmStalls(Files.readAllLines(leg.safepointLog()),
                from - leg.service().startedMillis());
        ResultLines.append(file, "redis_stalls=" + redisStalls, "jvm_stalls=" + jvmStalls);
        chart(file, "Steady load (" + label + "): " + Figures.group(String.valueOf(rate)) + " orders/s asked, "
                + settings.e2eConnections() + " connections");
        leg.service().checkAlive();
        Map<String, String> lines = ResultLines.read(file);
        ChildProcesses.say("steady load (" + label + "): steady after " + lines.get("load_warm_up_seconds") + " s ("
                + lines.get("load_warm_up_steady") + "); POST p99 " + lines.get("post_p99") + " ms, 202 → row p99 "
                + lines.get("e2e_p99") + " ms");
    }

    /** The admission script alone at RATE straight to the leg's Redis, with appendfsync FSYNC set there. */
    void script(ServiceLeg leg, String fsync, int rate) throws Exception {
        ChildProcesses.say("steady load: the admission script alone, " + rate + "/s for " + settings.e2eSeconds()
                + " s straight to Redis (appendfsync " + fsync + ")");
        String sha;
        leg.rewriteAppendOnlyFile();
        try (RespConnection redis = leg.service().redis()) {
            sha = RedisBenchmark.load(redis, context.admitScript());
            RedisBenchmark.freshLimitKeys(redis);
            StallReports.resetRedisMonitor(redis);
        }
        Path file = context.log("steady-script-" + fsync + ".txt");
        context.steps().run(file, leg.service().redisPassword(), "script", leg.service().redisPort(), rate,
                settings.e2eSeconds(), settings.e2eWarmUpSeconds(), settings.e2eWarmUpMaxSeconds(),
                settings.e2eConnections(), sha, RedisBenchmark.LIMIT_KEYS.size(), RedisBenchmark.LIMIT_KEYS, "__n__",
                1, "__n__", ServiceLeg.PAYMENT_TIMEOUT_MILLIS, RedisBenchmark.NO_LIMITS);
        try (RespConnection redis = leg.service().redis()) {
            ResultLines.append(file, "redis_stalls=" + StallReports.redisStalls(redis,
                    Long.parseLong(ResultLines.read(file).get("script_measured_from_ms"))));
            RedisBenchmark.removeLimitKeys(redis);
        }
        chart(file, "The admission script alone, appendfsync " + fsync + ": " + Figures.group(String.valueOf(rate))
                + "/s asked, " + settings.e2eConnections() + " connections");
        Map<String, String> lines = ResultLines.read(file);
        ChildProcesses.say("steady load: the script alone, steady after " + lines.get("script_warm_up_seconds") + " s ("
                + lines.get("script_warm_up_steady") + "); p99 " + lines.get("script_p99") + " ms (appendfsync " + fsync
                + ")");
    }

    /** A steady load's picture, named after its log, beside the summary. */
    private void chart(Path results, String title) throws Exception {
        String name = results.getFileName().toString().replaceFirst("\\.txt$", ".svg");
        SteadyLoadChart.run(new String[] {results.toString(), context.run().resolve(name).toString(), title});
    }
}
