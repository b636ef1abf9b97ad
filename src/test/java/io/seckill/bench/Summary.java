package io.seckill.bench;

import static io.seckill.bench.Figures.atLeast;
import static io.seckill.bench.Figures.below;
import static io.seckill.bench.Figures.group;
import static io.seckill.bench.Figures.percent;
import static io.seckill.bench.Figures.wrkRate;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The run's summary.md, from what its steps left ({@link RunFiles}): every figure beside its reference of the same
 * run, the ratio, the target and whether it was met, then each leg's table and the correctness checks. Its text is
 * that of the summaries in bench/runs, so runs stay comparable. Prints {@code summary_failed_checks}; run.sh exits 1
 * when it is not 0.
 *
 * <pre>summary RUN_FOLDER</pre>
 */
final class Summary {

    static final String FILE = "summary.md";
    private static final List<String> FLASH_EXPECTED = List.of("202", "409_SOLD_OUT", "409_ALREADY_ORDERED");

    /** A steady load that ran: its label, the rate asked, its results file in logs/ (the picture shares its name). */
    private record SteadyLoadRun(String label, String asked, String log) {
        String picture() {
            return log.replace(".txt", ".svg");
        }
    }

    private final RunFiles run;
    private final CorrectnessChecks checks = new CorrectnessChecks();
    private final StringBuilder text = new StringBuilder();

    Summary(RunFiles run) {
        this.run = run;
    }

    static void run(String[] args) throws Exception {
        Path folder = Path.of(args[0]);
        Summary summary = new Summary(new RunFiles(folder));
        Files.writeString(folder.resolve(FILE), summary.markdown());
        ResultLines.print("summary_failed_checks", summary.failures());
    }

    int failures() {
        return checks.failures();
    }

    String markdown() {
        text.setLength(0);
        correctness();
        header();
        headline();
        intake();
        script();
        steadyLoads();
        drain();
        memory();
        correctnessSection();
        return text.toString();
    }

    // --- figures the sections share --------------------------------------------------------------------------------

    private String fact(String key) {
        return run.fact(key);
    }

    private String connections() {
        return fact("best_connections");
    }

    private String fsyncDefault() {
        return fact("fsync_default");
    }

    private String fsyncOther() {
        return fact("fsync_other");
    }

    private String rate(String wrkLog) {
        return wrkRate(run.results(wrkLog));
    }

    private String bestRate() {
        return rate("wrk-" + connections() + ".txt");
    }

    /** The reference's best level: its highest rate, the first level on a tie. */
    private String[] referenceBest() {
        String best = "0";
        String level = "";
        for (String connections : fact("connections").split(" ")) {
            String rate = rate("wrk-reference-" + connections + ".txt");
            if (Figures.number(rate) != null && Figures.number(rate) > Figures.number(best)) {
                best = rate;
                level = connections;
            }
        }
        return new String[] {best, level};
    }

    /** The results files of the netty-http leg's alternated rounds, the engine's (or the controller's beside it). */
    private List<String> nettyRounds(boolean reference) {
        Double rounds = Figures.number(fact("netty_rounds"));
        List<String> logs = new ArrayList<>();
        for (int round = 1; rounds != null && round <= rounds; round++) {
            logs.add(reference ? NettyLeg.referenceLog(round) : NettyLeg.nettyLog(round));
        }
        return logs;
    }

    /** The median rate of the netty-http leg's rounds, the engine's (or the controller's beside it). */
    private String nettyMedian(boolean reference) {
        return Figures.median(nettyRounds(reference).stream().map(this::rate).toList());
    }

    private static String rounds(String count) {
        return count + ("1".equals(count) ? " round" : " rounds");
    }

    private String limitRate() {
        String rps = run.csvField("redis-benchmark-unpipelined.csv", 2);
        return Figures.number(rps) == null ? Figures.NONE : Figures.decimals(Figures.number(rps), 0);
    }

    private boolean postgresRan() {
        return "1".equals(fact("pg_ran"));
    }

    private String pg(String log, String key) {
        return postgresRan() ? run.value(log, key) : Figures.NONE;
    }

    private List<SteadyLoadRun> steadyLoadsThatRan() {
        List<SteadyLoadRun> loads = new ArrayList<>(List.of(
                new SteadyLoadRun("H2", fact("e2e_rate"), "steady-load-h2.txt"),
                new SteadyLoadRun("H2, appendfsync " + fsyncOther(), fact("e2e_rate"),
                        "steady-load-h2-" + fsyncOther() + ".txt"),
                new SteadyLoadRun("H2, netty-http engine", fact("e2e_rate_netty"), "steady-load-h2-netty.txt"),
                new SteadyLoadRun("PostgreSQL", fact("e2e_rate"), "steady-load-pg.txt")));
        loads.removeIf(load -> !run.hasLog(load.log()));
        return loads;
    }

    private List<SteadyLoadRun> scriptLoads() {
        return List.of(
                new SteadyLoadRun("the admission script alone, straight to Redis, appendfsync " + fsyncDefault(),
                        fact("e2e_rate"), "steady-script-" + fsyncDefault() + ".txt"),
                new SteadyLoadRun("the admission script alone, straight to Redis, appendfsync " + fsyncOther(),
                        fact("e2e_rate"), "steady-script-" + fsyncOther() + ".txt"));
    }

    private void line(String line) {
        text.append(line).append('\n');
    }

    // --- sections ---------------------------------------------------------------------------------------------------

    private void header() {
        line("# seckill-camel benchmark, " + fact("date") + " UTC");
        line("");
        if ("1".equals(fact("quick"))) {
            line("**Quick run: shortened settings to check the harness; these figures are not comparable.**");
            line("");
        }
        line("- Machine: " + fact("machine") + ".");
        line("- Software: " + fact("java_version") + "; embedded redis-server " + fact("redis_version")
                + "; PostgreSQL " + (postgresRan() ? fact("pg_version") : "not run") + "; " + fact("wrk_version")
                + "; " + fact("redis_benchmark_version") + ".");
        line("- Load average when the run started: " + fact("load_at_start") + ". wrk, redis-benchmark and the Java"
                + " load generator share the CPUs with the service.");
        String options = fact("java_opts").isEmpty() ? "none given, so the recommended defaults" : fact("java_opts");
        line("- Service: git " + fact("git") + ", JVM options: " + options + ", MALLOC_ARENA_MAX="
                + fact("malloc_arena_max") + ", batch size " + fact("batch_size") + ", embedded Redis (appendfsync "
                + fsyncDefault() + ").");
        line("- Settings: warm-up " + fact("warmup_seconds") + " s; intake " + fact("intake_seconds")
                + " s per level; " + group(fact("limit_requests")) + " script runs per limit mode;");
        line("  steady load " + fact("e2e_seconds") + " s after the same load unmeasured until steady ("
                + fact("e2e_warmup_seconds") + "–" + fact("e2e_warmup_max_seconds") + " s); backlog "
                + group(fact("drain_orders")) + " orders; flash crowd " + group(fact("flash_requests"))
                + " requests from " + group(fact("flash_buyers")) + " buyers for " + group(fact("flash_stock"))
                + " units.");
        line("");
    }

    private void headline() {
        String best = bestRate();
        String[] reference = referenceBest();
        String limit = limitRate();
        String limited = rate("wrk-rate-limits.txt");
        String soldOut = rate("wrk-sold-out.txt");
        String fsync = rate("wrk-fsync-" + fsyncOther() + ".txt");
        String netty = nettyMedian(false);
        String nettyReference = nettyMedian(true);
        String nettySoldOut = rate("wrk-netty-sold-out.txt");
        String referenceRatio = percent(best, reference[0]);
        String intakeRatio = percent(best, limit);
        String limitedRatio = percent(limited, best);
        String soldOutRatio = percent(soldOut, best);
        String nettyReferenceRatio = percent(netty, nettyReference);
        String nettyScriptRatio = percent(netty, limit);
        String nettySoldOutRatio = percent(nettySoldOut, netty);
        String postP99 = run.value("steady-load-h2.txt", "post_p99");
        String nettyPostP99 = run.value("steady-load-h2-netty.txt", "post_p99");
        String drainRate = run.value("drain-h2.txt", "drain_rate");
        String jdbcRate = run.value("jdbc-baseline-h2.txt", "jdbc_rate");
        String drainRatio = percent(drainRate, jdbcRate);
        String pgDrainRate = pg("drain-pg.txt", "drain_rate");
        String pgJdbcRate = pg("jdbc-baseline-pg.txt", "jdbc_rate");
        String pgDrainRatio = percent(pgDrainRate, pgJdbcRate);
        String e2eP99 = run.value("steady-load-h2.txt", "e2e_p99");
        String pgE2eP99 = pg("steady-load-pg.txt", "e2e_p99");
        String rssPg = postgresRan() ? fact("rss_pg") : Figures.NONE;
        String c = connections();

        line("## Headline");
        line("");
        line("| measure | service | reference, same run | service / reference | target | met |");
        line("| --- | ---: | ---: | ---: | --- | --- |");
        line("| intake, accepted orders/s (best: " + c + " connections; rate limits off) | " + group(best) + " | "
                + group(reference[0]) + " (plain Spring MVC controller, same script and Redis, best: " + reference[1]
                + " connections) | " + referenceRatio + " % | ≥ 150 % | " + atLeast(referenceRatio, 150) + " |");
        line("| intake, accepted orders/s | " + group(best) + " | " + group(limit) + " (admission script alone, "
                + fact("limit_clients") + " clients, no pipelining) | " + intakeRatio + " % | ≥ 25 % | "
                + atLeast(intakeRatio, 25) + " |");
        line("| intake with the default rate limits on (per buyer 5/s, per address 2,000/s; " + c + " connections) | "
                + group(limited) + " | " + group(best) + " (limits off) | " + limitedRatio + " % | ≥ 80 % | "
                + atLeast(limitedRatio, 80) + " |");
        line("| sold-out refusals/s (every answer 409 SOLD_OUT; " + c + " connections) | " + group(soldOut) + " | "
                + group(best) + " (accepted/s) | " + soldOutRatio + " % | ≥ 100 % | " + atLeast(soldOutRatio, 100)
                + " |");
        line("| intake on the netty-http engine (seckill.api.engine=netty-http; best: " + fact("netty_connections")
                + " connections, limits off; median of " + rounds(fact("netty_rounds")) + ") | " + group(netty) + " | "
                + group(nettyReference) + " (plain Spring MVC controller on its Redis, measured in turn with it, "
                + fact("reference_connections") + " connections; median) | " + nettyReferenceRatio + " % | ≥ 150 % | "
                + atLeast(nettyReferenceRatio, 150) + " |");
        line("| intake on the netty-http engine | " + group(netty) + " | " + group(limit)
                + " (admission script alone) | " + nettyScriptRatio + " % | ≥ 25 % | " + atLeast(nettyScriptRatio, 25)
                + " |");
        line("| sold-out refusals/s on the netty-http engine | " + group(nettySoldOut) + " | " + group(netty)
                + " (its accepted/s) | " + nettySoldOutRatio + " % | ≥ 100 % | " + atLeast(nettySoldOutRatio, 100)
                + " |");
        line("| intake with appendfsync " + fsyncOther() + " instead of " + fsyncDefault() + " (" + c
                + " connections) | " + group(fsync) + " | " + group(best) + " (" + fsyncDefault() + ") | "
                + percent(fsync, best) + " % | (what the policy costs) | |");
        line("| POST latency p99 at half load (" + group(fact("e2e_rate")) + "/s, H2) | " + postP99 + " ms | "
                + run.value("steady-script-" + fsyncDefault() + ".txt", "script_p99")
                + " ms (the admission script alone at that rate, straight to Redis) | | < 20 ms | "
                + below(postP99, 20) + " |");
        line("| POST latency p99 at half load with appendfsync " + fsyncOther() + " | "
                + run.value("steady-load-h2-" + fsyncOther() + ".txt", "post_p99") + " ms | "
                + run.value("steady-script-" + fsyncOther() + ".txt", "script_p99") + " ms (the script alone, "
                + fsyncOther() + ") | | (what the policy costs) | |");
        line("| POST latency p99 at half the netty-http engine's rate (" + group(fact("e2e_rate_netty"))
                + "/s, H2) | " + nettyPostP99 + " ms | | | < 20 ms | " + below(nettyPostP99, 20) + " |");
        line("| drain into H2, orders written/s (" + group(fact("drain_orders")) + " backlog) | " + group(drainRate)
                + " | " + group(jdbcRate) + " (raw JDBC batches of " + fact("batch_size")
                + ", one commit each, H2 file) | " + drainRatio + " % | ≥ 80 % | " + atLeast(drainRatio, 80) + " |");
        line("| drain into PostgreSQL, orders written/s | " + group(pgDrainRate) + " | " + group(pgJdbcRate)
                + " (raw JDBC batches of " + fact("batch_size") + ", one commit each) | " + pgDrainRatio
                + " % | ≥ 80 % | " + atLeast(pgDrainRatio, 80) + " |");
        line("| 202 → row p99 at half load, H2 / PostgreSQL | " + e2eP99 + " / " + pgE2eP99 + " ms | | | < 100 ms | "
                + below(e2eP99, 100) + " / " + below(pgE2eP99, 100) + " |");
        line("| peak RSS of the service: intake / drain (H2) / rate limits on / netty-http / PostgreSQL leg | "
                + fact("rss_intake") + " / " + fact("rss_drain") + " / " + fact("rss_limited") + " / "
                + fact("rss_netty") + " / " + rssPg + " MB | " + fact("rss_reference") + " MB (reference) | | < 384 MB | "
                + below(Long.toString(peakRss(rssPg)), 384) + " |");
        line("| correctness: flash crowd, every order written once (checks below) | " + failures() + " failed | | |"
                + " none | " + (failures() == 0 ? "yes" : "no") + " |");
        line("");
    }

    /** The highest of the service's peak resident sets over the legs that ran (MB). */
    private long peakRss(String rssPg) {
        long peak = 0;
        for (String figure : List.of(fact("rss_intake"), fact("rss_drain"), fact("rss_limited"), fact("rss_netty"),
                rssPg)) {
            Double value = Figures.number(figure);
            if (value != null) {
                peak = Math.max(peak, value.longValue());
            }
        }
        return peak;
    }

    private void intake() {
        String c = connections();
        line("## Intake (wrk, " + fact("intake_seconds") + " s per level after " + fact("warmup_seconds")
                + " s of warm-up; every request a new buyer)");
        line("");
        line("Per second: answers of the expected status (202, or 409 for the sold-out voucher). The latencies are"
                + " wrk's, over every answer. CPU stolen: the share of the CPUs' time the hypervisor gave other guests"
                + " while wrk ran (/proc/stat); a row with more of it than its reference ran on less machine.");
        line("");
        wrkTableHead();
        for (String connections : fact("connections").split(" ")) {
            wrkRow(connections, "wrk-" + connections + ".txt");
        }
        wrkRow("sold out, " + c + " (409 expected)", "wrk-sold-out.txt");
        wrkRow("appendfsync " + fsyncOther() + ", " + c, "wrk-fsync-" + fsyncOther() + ".txt");
        wrkRow("rate limits on, " + c, "wrk-rate-limits.txt");
        String nettyConnections = fact("netty_connections");
        for (String connections : fact("connections").split(" ")) {
            wrkRow("netty-http engine, " + connections, NettyLeg.levelLog(Integer.parseInt(connections)));
        }
        List<String> nettyRounds = nettyRounds(false);
        for (int round = 1; round <= nettyRounds.size(); round++) {
            wrkRow("netty-http engine, round " + round + ", " + nettyConnections, nettyRounds.get(round - 1));
        }
        wrkRow("netty-http engine, sold out, " + nettyConnections + " (409 expected)", "wrk-netty-sold-out.txt");
        line("");
        line("The reference, a plain Spring MVC controller (bench/reference/ReferenceIntake.java) on the same Redis,"
                + " same JVM options:");
        line("");
        wrkTableHead();
        for (String connections : fact("connections").split(" ")) {
            wrkRow(connections, "wrk-reference-" + connections + ".txt");
        }
        List<String> besideNetty = nettyRounds(true);
        for (int round = 1; round <= besideNetty.size(); round++) {
            wrkRow("beside the netty-http engine, round " + round + ", " + fact("reference_connections"),
                    besideNetty.get(round - 1));
        }
        line("");
    }

    private void wrkTableHead() {
        line("| connections | per second | p50 | p99 | p99.9 | unexpected answers | socket errors | CPU stolen |");
        line("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    }

    private void wrkRow(String label, String log) {
        Map<String, String> wrk = run.results(log);
        line("| " + label + " | " + group(wrkRate(wrk)) + " | "
                + Figures.millisFromMicros(wrk.get("bench_p50_us")) + " ms | "
                + Figures.millisFromMicros(wrk.get("bench_p99_us")) + " ms | "
                + Figures.millisFromMicros(wrk.get("bench_p999_us")) + " ms | "
                + wrk.getOrDefault("bench_unexpected", "") + " | " + wrk.getOrDefault("bench_socket_errors", "") + " | "
                + Wrk.Result.of(wrk).stolenPercent() + " % |");
    }

    private void script() {
        String limit = limitRate();
        String pipelinedRps = run.csvField("redis-benchmark-pipelined.csv", 2);
        String pipelined = Figures.number(pipelinedRps) == null ? Figures.NONE
                : Figures.decimals(Figures.number(pipelinedRps), 0);
        line("## The admission script alone (redis-benchmark, EVALSHA " + fact("admit_script")
                + ", the service's Redis)");
        line("");
        line("| mode | scripts/s | p50 | p99 |");
        line("| --- | ---: | ---: | ---: |");
        line("| " + fact("limit_clients") + " clients, no pipelining | " + group(limit) + " | "
                + run.csvField("redis-benchmark-unpipelined.csv", 5) + " ms | "
                + run.csvField("redis-benchmark-unpipelined.csv", 7) + " ms |");
        line("| " + fact("limit_clients") + " clients, pipeline " + fact("limit_pipeline") + " | " + group(pipelined)
                + " | " + run.csvField("redis-benchmark-pipelined.csv", 5) + " ms | "
                + run.csvField("redis-benchmark-pipelined.csv", 7) + " ms |");
        line("");
    }

    private void steadyLoads() {
        line("## Steady load at half the best intake (open loop, " + fact("e2e_connections") + " connections)");
        line("");
        line("POST latency counts from when each request was due. Warm-up: the same load before the measured part,"
                + " unmeasured, until " + OpenLoop.STEADY_SECONDS + " s in a row answered every request within "
                + OpenLoop.STEADY_MILLIS + " ms of its due time (" + fact("e2e_warmup_seconds") + " s at least, "
                + fact("e2e_warmup_max_seconds") + " at most; \"not steady\": the cap was reached); each second's"
                + " worst answer, warm-up and measured part, and the measured part's worst 202 → row, are in the"
                + " load's log (*_worst_ms_by_second*). 202 → row: one order in " + fact("e2e_sample_every")
                + " followed with GET /api/orders/{id} every " + fact("e2e_poll_millis")
                + " ms (an upper bound, within one poll).");
        line("");
        line("| database | asked/s | sent/s | warm-up | POST p50 | POST p99 | POST p99.9 | 202 → row samples | p50 | p99"
                + " | p99.9 |");
        line("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (SteadyLoadRun load : steadyLoadsThatRan()) {
            Map<String, String> r = run.results(load.log());
            line("| " + load.label() + " | " + group(load.asked()) + " | " + group(r.getOrDefault("load_rate_done", ""))
                    + " | " + warmUp(r, "load") + " | " + r.getOrDefault("post_p50", "") + " ms | "
                    + r.getOrDefault("post_p99", "") + " ms | " + r.getOrDefault("post_p999", "") + " ms | "
                    + r.getOrDefault("e2e_count", "") + " | " + r.getOrDefault("e2e_p50", "") + " ms | "
                    + r.getOrDefault("e2e_p99", "") + " ms | " + r.getOrDefault("e2e_p999", "") + " ms |");
        }
        for (SteadyLoadRun load : scriptLoads()) {
            Map<String, String> r = run.results(load.log());
            line("| " + load.label() + " (" + r.getOrDefault("script_failures", "") + " failed) | "
                    + group(r.getOrDefault("script_rate_asked", "")) + " | "
                    + group(r.getOrDefault("script_rate_done", "")) + " | " + warmUp(r, "script") + " | "
                    + r.getOrDefault("script_p50", "") + " ms | " + r.getOrDefault("script_p99", "") + " ms | "
                    + r.getOrDefault("script_p999", "") + " ms | | | | |");
        }
        line("");
        pictures();
        line("The script alone is the floor under the POST latency: Redis and this machine's disk at the same rate,"
                + " without the service, its generator's HTTP and the writer on the two CPUs. Redis's stalls meanwhile:"
                + " appendfsync " + fsyncDefault() + ": "
                + orNone(run.value("steady-script-" + fsyncDefault() + ".txt", "redis_stalls")) + "; " + fsyncOther()
                + ": " + orNone(run.value("steady-script-" + fsyncOther() + ".txt", "redis_stalls")) + ".");
        line("");
        line("Redis's longest stalls during each steady load's measured part (events of 10 ms or more from LATENCY"
                + " HISTORY, with the seconds that had one and their longest added up; aof-fsync-always is an fsync of"
                + " the append-only file, which Redis waits for before answering):");
        line("");
        stalls("redis_stalls");
        line("");
        line("The service JVM's longest pauses during each steady load's measured part (safepoints: garbage"
                + " collections and the JVM's other stop-the-world operations, from -Xlog:safepoint), during which no"
                + " request is answered:");
        line("");
        stalls("jvm_stalls");
        line("");
    }

    /** Links to the pictures beside the summary (SteadyLoadChart), one per load that has one. */
    private void pictures() {
        List<String> links = new ArrayList<>();
        List<SteadyLoadRun> loads = new ArrayList<>(steadyLoadsThatRan());
        loads.addAll(scriptLoads());
        for (SteadyLoadRun load : loads) {
            if (run.hasFile(load.picture())) {
                links.add("[" + load.label() + "](" + load.picture() + ")");
            }
        }
        if (!links.isEmpty()) {
            line("Each load second by second, warm-up shaded (its answers per second against the rate asked, and"
                    + " their p99): " + String.join(", ", links) + ".");
            line("");
        }
    }

    private static String warmUp(Map<String, String> results, String prefix) {
        return results.getOrDefault(prefix + "_warm_up_seconds", "") + " s"
                + ("true".equals(results.get(prefix + "_warm_up_steady")) ? "" : ", not steady");
    }

    private void stalls(String key) {
        for (SteadyLoadRun load : steadyLoadsThatRan()) {
            line("- " + load.label() + ": " + orNone(run.value(load.log(), key)));
        }
    }

    private static String orNone(String value) {
        return value.isEmpty() ? "none" : value;
    }

    private void drain() {
        line("## Drain of a backlog (the writer route stopped while " + group(fact("drain_orders"))
                + " orders were admitted, then started)");
        line("");
        line("| writer | rows | seconds | rows/s | CPU per row: JVM | Redis | PostgreSQL |");
        line("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        drainRow("the service's order-writer, H2", "drain-h2.txt");
        jdbcRow("raw JDBC, same statement and batch size, one commit per batch, fresh H2 file", "jdbc-baseline-h2.txt");
        if (postgresRan()) {
            drainRow("the service's order-writer, PostgreSQL", "drain-pg.txt");
            jdbcRow("raw JDBC, same statement and batch size, one commit per batch, fresh PostgreSQL database",
                    "jdbc-baseline-pg.txt");
        }
        line("");
        String cpus = fact("cpus");
        line("CPU per row: the CPU time (user + system, µs) each process spent during the drain or the baseline's"
                + " timed loop, divided by its rows; the service's JVM includes its compiler, collector and every other"
                + " thread, the baseline's its own. On " + cpus + " CPUs a drain cannot run faster than " + cpus
                + " s of CPU per second over the sum of a row's figures.");
        line("");
        line("Redis's main thread (/proc/<pid>/schedstat) during the drain into H2 ran "
                + run.value("drain-h2.txt", "redis_ran_ms") + " ms and waited runnable for a CPU "
                + run.value("drain-h2.txt", "redis_waited_ms") + " ms"
                + (postgresRan() ? "; into PostgreSQL it ran " + run.value("drain-pg.txt", "redis_ran_ms")
                        + " ms and waited " + run.value("drain-pg.txt", "redis_waited_ms") + " ms" : "")
                + ". Each read and acknowledgement of the writer waits for Redis's CPU as well as for its work.");
        line("");
    }

    private void drainRow(String label, String log) {
        Map<String, String> r = run.results(log);
        line("| " + label + " (second half alone: " + group(r.getOrDefault("drain_rate_second_half", "")) + "/s) | "
                + group(r.getOrDefault("drain_orders", "")) + " | " + r.getOrDefault("drain_seconds", "") + " | "
                + group(r.getOrDefault("drain_rate", "")) + " |" + cpuCells(r));
    }

    private void jdbcRow(String label, String log) {
        Map<String, String> r = run.results(log);
        line("| " + label + " | " + group(r.getOrDefault("jdbc_rows", "")) + " | " + r.getOrDefault("jdbc_seconds", "")
                + " | " + group(r.getOrDefault("jdbc_rate", "")) + " |" + cpuCells(r));
    }

    /** The CPU per row of each process counted, " 12.3 µs |" each, an empty cell for one not counted. */
    private static String cpuCells(Map<String, String> results) {
        StringBuilder cells = new StringBuilder();
        for (String process : List.of("jvm", "redis", "postgres")) {
            String value = results.getOrDefault("cpu_us_per_order_" + process, "");
            cells.append(' ').append(value.isEmpty() ? "" : value + " µs").append(" |");
        }
        return cells.toString();
    }

    private void memory() {
        line("## Memory (VmHWM)");
        line("");
        line("- Service JVM, H2 leg: " + fact("rss_intake") + " MB from start through the intake runs; "
                + fact("rss_drain") + " MB from " + fact("rss_drain_from") + " through the drain.");
        line("- Service JVM, rate-limits leg: " + fact("rss_limited") + " MB; netty-http leg: " + fact("rss_netty")
                + " MB (from start through its steady load); PostgreSQL leg: "
                + (postgresRan() ? fact("rss_pg") : Figures.NONE) + " MB (from the drain's start).");
        line("- The reference controller: " + fact("rss_reference") + " MB. The embedded redis-server: "
                + fact("rss_redis") + " MB over the H2 leg (not counted in the service's figure).");
        line("");
    }

    private void correctnessSection() {
        Map<String, String> flash = run.results("flash-crowd.txt");
        List<String> outcomes = new ArrayList<>();
        flash.forEach((key, count) -> {
            if (key.startsWith("flash_outcome_")) {
                outcomes.add(key.substring("flash_outcome_".length()) + "=" + count);
            }
        });
        line("## Correctness");
        line("");
        line("Flash crowd: " + String.join(" ", outcomes) + " in " + flash.getOrDefault("flash_seconds", "") + " s ("
                + group(flash.getOrDefault("flash_rate", "")) + " requests/s).");
        line("");
        line("| check | result |");
        line("| --- | --- |");
        text.append(checks.rows());
    }

    // --- the checks -------------------------------------------------------------------------------------------------

    private void correctness() {
        String stock = fact("flash_stock");
        Map<String, String> verify = run.results("verify-h2.txt");
        String accepted = run.value("flash-crowd.txt", "flash_accepted");
        String other = CorrectnessChecks.unexpectedOutcomes(run.results("flash-crowd.txt"), "flash_outcome_",
                FLASH_EXPECTED);
        checks.check("flash crowd: " + accepted + " orders accepted (202) for a stock of " + stock,
                same(accepted, stock));
        checks.check("flash crowd: every other answer 409 SOLD_OUT or ALREADY_ORDERED"
                + (other.isEmpty() ? "" : " (also: " + other + ")"), other.isEmpty());
        checks.check("flash crowd: remaining " + fact("flash_remaining"), same(fact("flash_remaining"), "0"));
        checks.check("flash crowd: " + fact("flash_buyers_in_redis") + " buyers recorded in Redis",
                same(fact("flash_buyers_in_redis"), stock));
        checks.check("flash crowd: " + verify.getOrDefault("verify_flash_rows", "") + " rows, "
                        + verify.getOrDefault("verify_flash_buyers", "") + " distinct buyers",
                same(verify.get("verify_flash_rows"), stock) && same(verify.get("verify_flash_buyers"), stock));
        checks.check("flash crowd: rows missing " + verify.getOrDefault("verify_flash_missing", "")
                        + ", rows never accepted " + verify.getOrDefault("verify_flash_unexpected", ""),
                same(verify.get("verify_flash_missing"), "0") && same(verify.get("verify_flash_unexpected"), "0"));
        checks.check("H2: every voucher of the run, rows = stock − remaining (" + fact("vouchers_checked")
                + " vouchers)", same(verify.get("verify_mismatches"), "0"));
        checks.check("H2: dead letters " + fact("dead_letters"), same(fact("dead_letters"), "0"));
        String unseen = run.value("steady-load-h2.txt", "e2e_unseen");
        checks.check("H2: orders followed to their row and never seen: " + unseen, same(unseen, "0"));
        String soldOut = run.value("wrk-sold-out.txt", "bench_unexpected");
        checks.check("sold out: every answer 409 (other answers: " + soldOut + ")", same(soldOut, "0"));
        List<String> nettyLogs = new ArrayList<>(nettyRounds(false));
        boolean nettyRan = !nettyLogs.isEmpty();
        for (String connections : fact("connections").split(" ")) {
            nettyLogs.add(NettyLeg.levelLog(Integer.parseInt(connections)));
        }
        List<String> nettyOthers = new ArrayList<>(nettyLogs.stream().map(log -> run.value(log, "bench_unexpected"))
                .toList());
        nettyOthers.add(run.value("wrk-netty-sold-out.txt", "bench_unexpected"));
        checks.check("netty-http engine: every intake answer 202, every sold-out answer 409 (other answers: "
                + String.join(", ", nettyOthers) + ")", nettyRan
                && CorrectnessChecks.sumIs(0, nettyOthers.toArray(String[]::new)));
        String limited = run.value("wrk-rate-limits.txt", "bench_unexpected");
        checks.check("rate limits on: every answer 202 (other answers, e.g. 429: " + limited + ")",
                same(limited, "0"));
        unpaidWinners(stock);
        if (postgresRan()) {
            checks.check("PostgreSQL: every voucher of the run, rows = stock − remaining ("
                    + fact("pg_vouchers_checked") + " vouchers)", same(run.value("verify-pg.txt", "verify_mismatches"),
                    "0"));
            checks.check("PostgreSQL: dead letters " + fact("pg_dead_letters"), same(fact("pg_dead_letters"), "0"));
            String pgUnseen = run.value("steady-load-pg.txt", "e2e_unseen");
            checks.check("PostgreSQL: orders followed to their row and never seen: " + pgUnseen, same(pgUnseen, "0"));
        }
    }

    /** Leg 4: the paid orders are the only live ones at the end, every unpaid unit sold again once, the ledger. */
    private void unpaidWinners(String stock) {
        String first = run.value("lifecycle-first-crowd.txt", "flash_accepted");
        String second = run.value("lifecycle-second-crowd.txt", "flash_accepted");
        String paid = run.value("lifecycle-pay.txt", "pay_paid");
        String freed = fact("life_freed");
        String remaining = fact("life_remaining");
        String dead = fact("life_dead");
        Map<String, String> statuses = run.results("lifecycle-statuses.txt");
        String paidRows = statuses.getOrDefault("status_PAID", "");
        String createdRows = statuses.getOrDefault("status_CREATED", "");
        String cancelledRows = statuses.getOrDefault("status_CANCELLED", "");
        String sold = statuses.getOrDefault("sold", "");
        String liveBuyers = statuses.getOrDefault("live_buyers", "");
        Double unpaid = difference(first, paid);
        String unpaidText = unpaid == null ? "" : Figures.decimals(unpaid, 0);

        checks.check("unpaid winners: first crowd " + first + " accepted for a stock of " + stock + ", " + paid + " paid",
                same(first, stock) && Figures.number(paid) != null && Figures.number(paid) > 0);
        checks.check("unpaid winners: the " + unpaidText + " unpaid units came back (" + freed
                        + ") and the second crowd bought exactly them (" + second + ")",
                same(freed, unpaidText) && same(second, unpaidText));
        Double stockLeft = difference(stock, paid);
        Double cancelled = difference(first, paid) == null || Figures.number(second) == null ? null
                : Figures.number(first) + Figures.number(second) - Figures.number(paid);
        checks.check("unpaid winners, at the end: " + paidRows + " PAID, " + createdRows + " CREATED, " + cancelledRows
                        + " CANCELLED rows; sold " + sold + "; remaining " + remaining,
                same(paidRows, paid) && same(createdRows, "0") && equal(cancelledRows, cancelled) && same(sold, paid)
                        && equal(remaining, stockLeft));
        Double live = Figures.number(paidRows) == null || Figures.number(createdRows) == null ? null
                : Figures.number(paidRows) + Figures.number(createdRows);
        Double soldUnits = difference(stock, remaining);
        checks.check("unpaid winners: live rows + dead letters (" + dead + ") = stock − remaining; one live order per"
                        + " buyer (" + liveBuyers + " buyers)",
                live != null && soldUnits != null && Figures.number(dead) != null
                        && live + Figures.number(dead) == soldUnits && equal(liveBuyers, live));
    }

    /** Both figures present and equal as numbers. */
    private static boolean same(String figure, String expected) {
        return equal(figure, Figures.number(expected));
    }

    private static boolean equal(String figure, Double expected) {
        Double value = Figures.number(figure);
        return value != null && expected != null && value.doubleValue() == expected.doubleValue();
    }

    private static Double difference(String a, String b) {
        Double x = Figures.number(a);
        Double y = Figures.number(b);
        return x == null || y == null ? null : x - y;
    }
}
