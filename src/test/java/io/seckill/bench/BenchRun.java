package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The full run of bench/run.sh (bench/README.md, "What one run does"): {@code Harness run ROOT RUN JAR QUICK}, ROOT
 * the repository, RUN the run's folder (its harness copy in work/harness), JAR the packaged service, QUICK 1 for the
 * short settings. Exits 1 when a correctness check failed. Leg by leg: 1 (H2, limits off: intake, sold out, the other
 * fsync policy, the reference, the script's limit, steady loads, flash crowd, drain, the database check and the raw
 * JDBC baseline), 2 (the default limits on), 2b (netty-http), 3 (PostgreSQL), 4 (winners who do not pay); then the
 * summary ({@link Summary}) from every step's results in logs/ and the facts in logs/run.txt.
 */
final class BenchRun {

    private static final String WRITER_ROUTE = "order-writer";
    static final long MAX_STOCK = 10_000_000;
    /**
     * The payment window of the throughput legs (1 to 3), longer than the run: with the service's default (15 min)
     * the warm-up's orders fell due while leg 1 still ran, their cancellations took CPU from the drain, and the check
     * counted rows cancelled after it had read what Redis sold (2026-11-23). Leg 4 measures the expiry.
     */
    private static final List<String> THROUGHPUT_WINDOW = List.of("--seckill.order.payment-timeout=24h");
    private static final long PAYMENT_TIMEOUT_MILLIS = 86_400_000;
    /** Every leg but 2b serves the API on Tomcat, as every run in bench/runs measured it (netty-http since ae5ab41). */
    private static final List<String> TOMCAT = List.of("--seckill.api.engine=platform-http");
    private static final List<String> NO_RATE_LIMITS = List.of("--seckill.rate-limit.per-buyer.rate=0",
            "--seckill.rate-limit.per-address.rate=0");
    private static final Duration SERVICE_STOP_GRACE = Duration.ofSeconds(90);

    private final Path root;
    private final Path run;
    private final Path logs;
    private final Path work;
    private final Path jar;
    private final BenchSettings settings;
    private final ChildProcesses processes;
    private final Path admitScript;
    private final Wrk wrk;
    private final RedisBenchmark redisBenchmark;
    /** What only the driver knows, for the summary (logs/run.txt): the settings, the machine, what the legs read. */
    private final Map<String, Object> facts = new LinkedHashMap<>();
    private HarnessSteps steps;
    private ReferenceController reference;
    private String rssDrainFrom = "service start";

    private BenchRun(Path root, Path run, Path jar, BenchSettings settings, ChildProcesses processes) {
        this.root = root;
        this.run = run;
        this.logs = run.resolve("logs");
        this.work = run.resolve("work");
        this.jar = jar;
        this.settings = settings;
        this.processes = processes;
        this.admitScript = root.resolve("lua/admitOrder-6.lua");
        this.wrk = new Wrk(processes, root.resolve("bench/intake.lua"), settings.wrkThreads());
        this.redisBenchmark = new RedisBenchmark(processes);
    }

    static void run(String[] args) throws Exception {
        if (args.length != 4) {
            throw new IllegalArgumentException("usage: Harness run ROOT RUN JAR QUICK(0|1)");
        }
        Path root = Path.of(args[0]).toAbsolutePath();
        Path run = Path.of(args[1]).toAbsolutePath();
        Files.createDirectories(run.resolve("logs"));
        BenchSettings settings = BenchSettings.from(System::getenv, args[3].equals("1"), root);
        int failed;
        // the processes are stopped before the databases are dropped (resources close in reverse)
        try (PostgresDatabases databases = new PostgresDatabases();
                ChildProcesses processes = new ChildProcesses()) {
            if (settings.keepData()) {
                databases.keep();
            }
            failed = new BenchRun(root, run, Path.of(args[2]), settings, processes).measure(databases);
            if (failed > 0) {
                databases.keep();
            }
        } catch (Exception e) {
            System.err.println("bench: stopped (" + e + "); logs in " + run.resolve("logs"));
            throw e;
        }
        if (failed > 0) {
            ChildProcesses.say("FAILED: " + failed + " correctness checks; the run's data stays in " + run);
            System.exit(1);
        }
        delete(run.resolve("work/jar"), run.resolve("work/harness"), run.resolve("work/reference"));
        if (!settings.keepData()) {
            delete(run.resolve("h2/data"), run.resolve("limits/data"), run.resolve("netty/data"),
                    run.resolve("pg/data"), run.resolve("lifecycle/data"), run.resolve("work/baseline"));
        }
        ChildProcesses.say("done: " + run.resolve(Summary.FILE));
    }

    /** The whole run; returns how many correctness checks failed. */
    private int measure(PostgresDatabases databases) throws Exception {
        MachineFacts machine = MachineFacts.read();
        Path lib = ReferenceController.unpackLibraries(jar, work.resolve("jar"));
        steps = new HarnessSteps(processes, work.resolve("harness"), lib);
        reference = ReferenceController.compile(root.resolve("bench/reference/ReferenceIntake.java"), lib,
                work.resolve("reference"));

        LegOne one = legOne();
        int longWarmUp = settings.longWarmUpSeconds();
        legTwo(one.bestConnections(), longWarmUp);
        int nettyRate = legTwoB(one.bestConnections(), longWarmUp);
        boolean pg = legThree(databases, one.e2eRate(), longWarmUp);
        legFour();

        note("date", ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")));
        note("quick", settings.quick() ? 1 : 0);
        long memoryKb = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal"))
                .map(l -> Long.parseLong(l.replaceAll("\\D", ""))).findFirst().orElse(0L);
        note("machine", machine.cpus() + " CPUs (" + machine.cpuModel() + "), "
                + Figures.decimals(memoryKb / 1048576.0, 1) + " GiB of memory, Linux "
                + System.getProperty("os.version"));
        note("cpus", machine.cpus());
        note("java_version", machine.javaVersion());
        note("redis_version", one.redisVersion());
        note("pg_version", pg ? PostgresDatabases.version() : "");
        note("wrk_version", firstWords(toolVersion("wrk", "--version"), 2));
        note("redis_benchmark_version", firstWords(toolVersion("redis-benchmark", "--version"), 2));
        note("load_at_start", machine.loadAverage());
        note("git", MachineFacts.commit(root, " + local changes"));
        note("java_opts", settings.javaOptionsText());
        note("malloc_arena_max", System.getenv().getOrDefault("MALLOC_ARENA_MAX", ""));
        note("batch_size", settings.batchSize());
        note("fsync_default", one.fsyncDefault());
        note("fsync_other", one.fsyncOther());
        note("admit_script", admitScript.getFileName());
        note("warmup_seconds", settings.warmUpSeconds());
        note("intake_seconds", settings.intakeSeconds());
        note("connections", String.join(" ", settings.connections().stream().map(String::valueOf).toList()));
        note("best_connections", one.bestConnections());
        note("limit_requests", settings.limitRequests());
        note("limit_clients", settings.limitClients());
        note("limit_pipeline", settings.limitPipeline());
        note("e2e_rate", one.e2eRate());
        note("e2e_rate_netty", nettyRate / 2);
        note("e2e_seconds", settings.e2eSeconds());
        note("e2e_warmup_seconds", settings.e2eWarmUpSeconds());
        note("e2e_warmup_max_seconds", settings.e2eWarmUpMaxSeconds());
        note("e2e_connections", settings.e2eConnections());
        note("e2e_sample_every", settings.e2eSampleEvery());
        note("e2e_poll_millis", settings.e2ePollMillis());
        note("drain_orders", settings.drainOrders());
        note("flash_stock", settings.flashStock());
        note("flash_requests", settings.flashRequests());
        note("flash_buyers", settings.flashBuyers());
        Files.writeString(logs.resolve(RunFiles.FACTS), facts.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue() + "\n").reduce("", String::concat));

        Summary summary = new Summary(new RunFiles(run));
        String markdown = summary.markdown();
        Files.writeString(run.resolve(Summary.FILE), markdown);
        int failed = summary.failures();
        Files.writeString(logs.resolve("summary.txt"), "summary_failed_checks=" + failed + "\n");
        System.out.println();
        System.out.print(markdown);
        System.out.println();
        return failed;
    }

    // --- the legs ----------------------------------------------------------------------------------------------------

    /** What leg 1 found that the later legs and the summary need. */
    private record LegOne(String redisVersion, int bestConnections, int e2eRate, String fsyncDefault,
            String fsyncOther) {
    }

    private LegOne legOne() throws Exception {
        ServiceLeg leg = start("h2", "service-h2.log", THROUGHPUT_WINDOW, TOMCAT, NO_RATE_LIMITS);
        String redisVersion = leg.redisInfo("redis_version");

        ChildProcesses.say("warming up: " + settings.warmUpSeconds() + " s of wrk at 64 connections");
        intake(leg, "warm-up", 64, settings.warmUpSeconds(), "wrk-warm-up.txt", false);
        int bestRate = 0;
        int best = 0;
        for (int connections : settings.connections()) {
            ChildProcesses.say("intake: " + settings.intakeSeconds() + " s of wrk at " + connections + " connections");
            int rate = rate(intake(leg, "intake " + connections, connections, settings.intakeSeconds(),
                    "wrk-" + connections + ".txt", false));
            if (rate > bestRate) {
                bestRate = rate;
                best = connections;
            }
        }
        ChildProcesses.say("intake: best " + bestRate + " accepted/s at " + best + " connections");

        ChildProcesses.say("sold out: " + settings.intakeSeconds() + " s of wrk at " + best
                + " connections on a voucher with no unit left");
        ChildProcesses.say("sold out: " + soldOut(leg, "sold-out", best, "wrk-sold-out.txt").rate() + " refusals/s");

        String fsyncDefault;
        try (RespConnection redis = leg.service().redis()) {
            fsyncDefault = String.valueOf(((List<?>) redis.call("CONFIG", "GET", "appendfsync")).get(1));
        }
        String fsyncOther = fsyncDefault.equals("always") ? "everysec" : "always";
        ChildProcesses.say("fsync: " + settings.intakeSeconds() + " s of wrk at " + best
                + " connections with appendfsync " + fsyncOther + " (default " + fsyncDefault + ")");
        leg.appendfsync(fsyncOther);
        Wrk.Result fsync = intake(leg, "fsync " + fsyncOther, best, settings.intakeSeconds(),
                "wrk-fsync-" + fsyncOther + ".txt", false);
        leg.appendfsync(fsyncDefault);
        leg.service().checkAlive();
        long rssIntake = ProcessReadings.peakRssMb(leg.service().pid());
        ChildProcesses.say("fsync: " + fsync.rate() + " accepted/s with " + fsyncOther
                + "; service peak RSS through the intake " + rssIntake + " MB");

        long rssReference = referenceIntake(leg);
        leg.service().checkAlive();

        ChildProcesses.say("waiting for the writer to catch up");
        leg.awaitStreamEmpty();
        for (int pipeline : List.of(1, settings.limitPipeline())) {
            ChildProcesses.say("intake limit: " + settings.limitRequests() + " admission scripts, "
                    + settings.limitClients() + " clients, "
                    + (pipeline == 1 ? "no pipelining" : "pipeline " + pipeline));
            String rate = redisBenchmark.admissionScriptRate(leg.service(), admitScript, settings.limitClients(),
                    pipeline, settings.limitRequests(), PAYMENT_TIMEOUT_MILLIS,
                    logs.resolve("redis-benchmark-" + (pipeline == 1 ? "unpipelined" : "pipelined") + ".csv"));
            ChildProcesses.say("intake limit: " + rate + "/s");
        }

        int e2eRate = settings.e2eRate() != null ? settings.e2eRate() : bestRate / 2;
        if (e2eRate <= 0) {
            throw new IOException("no intake rate measured to halve");
        }
        steadyLoad(leg, "h2", e2eRate, "steady-load-h2.txt");
        // The same load with the other fsync policy: what of the POST latency is the disk's. Then the script alone at
        // the same rate with each policy: the latency Redis and this disk give without the service, the floor under it.
        leg.appendfsync(fsyncOther);
        steadyLoad(leg, "h2, appendfsync " + fsyncOther, e2eRate, "steady-load-h2-" + fsyncOther + ".txt");
        scriptLoad(leg, fsyncOther, e2eRate);
        leg.appendfsync(fsyncDefault);
        scriptLoad(leg, fsyncDefault, e2eRate);

        long flashVoucher = leg.newVoucher("flash", settings.flashStock());
        ChildProcesses.say("flash crowd: " + settings.flashRequests() + " orders from " + settings.flashBuyers()
                + " buyers for a stock of " + settings.flashStock());
        Path accepted = work.resolve("flash-accepted.csv");
        steps.run(logs.resolve("flash-crowd.txt"), null, "flash", leg.service().base(), flashVoucher,
                settings.flashRequests(), settings.flashBuyers(), settings.flashConcurrency(), 42, accepted);
        leg.service().checkAlive();
        leg.awaitStreamEmpty();
        long flashRemaining = leg.api().units(flashVoucher).remaining();
        long flashBuyersInRedis = leg.redisInteger("SCARD", "seckill:{s0}:buyers:" + flashVoucher);

        long drainVoucher = drain(leg, "h2", false);
        long rssDrain = ProcessReadings.peakRssMb(leg.service().pid());
        long rssRedis = ProcessReadings.peakRssMb(leg.service().redisPid());
        long deadLetters = leg.redisInteger("XLEN", ServiceLeg.STREAM + ":dead");
        List<String> sold = leg.soldPerVoucher();
        ChildProcesses.say("stopping the service");
        leg.service().stop();

        steps.run(logs.resolve("verify-h2.txt"), null, "verify", "jdbc:h2:file:" + run.resolve("h2/data/db/seckill"),
                "sa", flashVoucher, accepted, sold);
        ChildProcesses.say("raw JDBC baseline: " + settings.drainOrders() + " rows in batches of "
                + settings.batchSize() + " into a fresh H2 file");
        steps.run(logs.resolve("jdbc-baseline-h2.txt"), null, "jdbc",
                "jdbc:h2:file:" + work.resolve("baseline/seckill") + ";WRITE_DELAY=0", "sa", settings.drainOrders(),
                settings.batchSize(), root.resolve("sql/schema.sql"), root.resolve("sql/insert-order.sql"),
                drainVoucher);

        note("flash_remaining", flashRemaining);
        note("flash_buyers_in_redis", flashBuyersInRedis);
        note("dead_letters", deadLetters);
        note("vouchers_checked", sold.size());
        note("rss_intake", rssIntake);
        note("rss_drain", rssDrain);
        note("rss_drain_from", rssDrainFrom);
        note("rss_reference", rssReference);
        note("rss_redis", rssRedis);
        return new LegOne(redisVersion, best, e2eRate, fsyncDefault, fsyncOther);
    }

    /** The plain controller on the service's Redis: warmed up as long, measured at the same levels; its peak RSS. */
    private long referenceIntake(ServiceLeg leg) throws Exception {
        ChildProcesses.say("reference: starting the plain Spring MVC controller on the service's Redis");
        ReferenceController.Running controller = reference.start(processes, settings.javaOptions(), leg.service(),
                admitScript, logs.resolve("reference.log"));
        try {
            ChildProcesses.say("reference: warming up, " + settings.warmUpSeconds() + " s of wrk at 64 connections");
            wrk.run(controller.base(), leg.newVoucher("reference-warm-up", MAX_STOCK), 64, settings.warmUpSeconds(),
                    202, "orders", false, logs.resolve("wrk-reference-warm-up.txt"));
            int bestRate = 0;
            int best = 0;
            for (int connections : settings.connections()) {
                ChildProcesses.say("reference: " + settings.intakeSeconds() + " s of wrk at " + connections
                        + " connections");
                int rate = rate(wrk.run(controller.base(), leg.newVoucher("reference " + connections, MAX_STOCK),
                        connections, settings.intakeSeconds(), 202, "orders", false,
                        logs.resolve("wrk-reference-" + connections + ".txt")));
                if (rate > bestRate) {
                    bestRate = rate;
                    best = connections;
                }
            }
            long rss = ProcessReadings.peakRssMb(controller.process().pid());
            ChildProcesses.say("reference: best " + bestRate + " accepted/s at " + best + " connections; peak RSS "
                    + rss + " MB");
            return rss;
        } finally {
            controller.stop();
        }
    }

    /** Leg 2: the default rate limits on, a service of its own; wrk names each buyer's address (X-Forwarded-For). */
    private void legTwo(int best, int longWarmUp) throws Exception {
        ServiceLeg leg = start("limits", "service-rate-limits.log", THROUGHPUT_WINDOW, TOMCAT,
                List.of("--seckill.rate-limit.trusted-proxies=127.0.0.1"));
        ChildProcesses.say("rate limits on: warming up, " + longWarmUp + " s of wrk at " + best + " connections");
        intake(leg, "limits-warm-up", best, longWarmUp, "wrk-rate-limits-warm-up.txt", true);
        ChildProcesses.say("rate limits on: " + settings.intakeSeconds() + " s of wrk at " + best + " connections");
        Wrk.Result limited = intake(leg, "limits", best, settings.intakeSeconds(), "wrk-rate-limits.txt", true);
        note("rss_limited", ProcessReadings.peakRssMb(leg.service().pid()));
        ChildProcesses.say("rate limits on: " + limited.rate() + " accepted/s");
        leg.service().stop();
    }

    /** Leg 2b: the API on netty-http, limits off: its best level, the sold-out path, a steady load at half its rate. */
    private int legTwoB(int best, int longWarmUp) throws Exception {
        ServiceLeg leg = start("netty", "service-netty.log", THROUGHPUT_WINDOW,
                List.of("--seckill.api.engine=netty-http"), NO_RATE_LIMITS);
        ChildProcesses.say("netty-http engine: warming up, " + longWarmUp + " s of wrk at " + best + " connections");
        intake(leg, "netty-warm-up", best, longWarmUp, "wrk-netty-warm-up.txt", false);
        int rate = rate(intake(leg, "netty", best, settings.intakeSeconds(), "wrk-netty.txt", false));
        ChildProcesses.say("netty-http engine: " + rate + " accepted/s");
        soldOut(leg, "netty-sold-out", best, "wrk-netty-sold-out.txt");
        leg.awaitStreamEmpty();
        steadyLoad(leg, "h2, netty-http", rate / 2, "steady-load-h2-netty.txt");
        note("rss_netty", ProcessReadings.peakRssMb(leg.service().pid()));
        leg.service().stop();
        return rate;
    }

    /** Leg 3: PostgreSQL, in two databases of the run's own; false when skipped. */
    private boolean legThree(PostgresDatabases databases, int e2eRate, int longWarmUp) throws Exception {
        if (!settings.postgres() || !PostgresDatabases.available()) {
            ChildProcesses.say("PostgreSQL: skipped (BENCH_POSTGRES=0, or no psql / no server on 127.0.0.1:5432)");
            note("pg_ran", 0);
            return false;
        }
        String database = "bench_"
                + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMddHHmmss"));
        databases.create(database);
        databases.create(database + "_baseline");
        ServiceLeg leg = start("pg", "service-pg.log", THROUGHPUT_WINDOW, TOMCAT,
                List.of("--spring.profiles.active=postgres", "--spring.datasource.url=" + settings.pgUrl() + database),
                NO_RATE_LIMITS);
        ChildProcesses.say("PostgreSQL: warming up, " + longWarmUp + " s of wrk at 64 connections");
        intake(leg, "pg-warm-up", 64, longWarmUp, "wrk-pg-warm-up.txt", false);
        leg.awaitStreamEmpty();
        steadyLoad(leg, "pg", e2eRate, "steady-load-pg.txt");
        leg.awaitStreamEmpty();
        long drainVoucher = drain(leg, "pg", true);
        long rss = ProcessReadings.peakRssMb(leg.service().pid());
        long deadLetters = leg.redisInteger("XLEN", ServiceLeg.STREAM + ":dead");
        List<String> sold = leg.soldPerVoucher();
        leg.service().stop();
        steps.run(logs.resolve("verify-pg.txt"), null, "verify", settings.pgUrl() + database, "postgres", "-", "-",
                sold);
        ChildProcesses.say("raw JDBC baseline: " + settings.drainOrders() + " rows in batches of "
                + settings.batchSize() + " into a fresh PostgreSQL database");
        steps.run(logs.resolve("jdbc-baseline-pg.txt"), null, "jdbc",
                settings.pgUrl() + database + "_baseline?reWriteBatchedInserts=true", "postgres",
                settings.drainOrders(), settings.batchSize(), root.resolve("sql/schema.sql"),
                root.resolve("sql/insert-order.sql"), drainVoucher);
        note("pg_ran", 1);
        note("rss_pg", rss);
        note("pg_dead_letters", deadLetters);
        note("pg_vouchers_checked", sold.size());
        return true;
    }

    /**
     * Leg 4, winners who do not pay: a short payment window; a flash crowd, one winner in two pays, the others' units
     * come back on sale; a second crowd buys them and does not pay. At the end only the paid orders are live.
     */
    private void legFour() throws Exception {
        int window = settings.paymentWindowSeconds();
        ServiceLeg leg = start("lifecycle", "service-lifecycle.log", TOMCAT,
                List.of("--seckill.order.payment-timeout=" + window + "s"), NO_RATE_LIMITS);
        long voucher = leg.newVoucher("lifecycle", settings.flashStock());
        ChildProcesses.say("unpaid winners: a flash crowd, one winner in 2 pays within the " + window + "s window");
        Path first = work.resolve("lifecycle-first.csv");
        crowd(leg, voucher, 7, first, "lifecycle-first-crowd.txt");
        steps.run(logs.resolve("lifecycle-pay.txt"), null, "pay", leg.service().base(), first, 2);
        long winners = Long.parseLong(
                ResultLines.read(logs.resolve("lifecycle-first-crowd.txt")).get("flash_accepted"));
        long paid = Long.parseLong(ResultLines.read(logs.resolve("lifecycle-pay.txt")).get("pay_paid"));
        awaitRemaining(leg, voucher, winners - paid);
        long freed = leg.api().units(voucher).remaining();
        ChildProcesses.say("unpaid winners: " + paid + " paid, " + freed + " units back on sale; a second crowd");
        crowd(leg, voucher, 8, work.resolve("lifecycle-second.csv"), "lifecycle-second-crowd.txt");
        awaitRemaining(leg, voucher, settings.flashStock() - paid);
        leg.awaitStreamEmpty();
        long remaining = leg.api().units(voucher).remaining();
        long deadLetters = leg.redisInteger("XLEN", ServiceLeg.STREAM + ":dead");
        leg.service().stop();
        steps.run(logs.resolve("lifecycle-statuses.txt"), null, "statuses",
                "jdbc:h2:file:" + run.resolve("lifecycle/data/db/seckill"), "sa", voucher);
        note("life_freed", freed);
        note("life_remaining", remaining);
        note("life_dead", deadLetters);
    }

    private void crowd(ServiceLeg leg, long voucher, int seed, Path accepted, String results) throws Exception {
        steps.run(logs.resolve(results), null, "flash", leg.service().base(), voucher, settings.flashRequests() / 5,
                settings.flashBuyers() / 5, settings.flashConcurrency(), seed, accepted);
    }

    /** Waits (the payment window and 3 minutes at most) until EXPECTED units are left; says so and goes on if not. */
    private void awaitRemaining(ServiceLeg leg, long voucher, long expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(settings.paymentWindowSeconds() + 180L).toNanos();
        long remaining;
        while ((remaining = leg.api().units(voucher).remaining()) != expected) {
            if (System.nanoTime() > deadline) {
                ChildProcesses.say("remaining of voucher " + voucher + " is " + remaining + ", not " + expected);
                return;
            }
            Thread.sleep(1000);
        }
    }

    // --- the steps the legs share ------------------------------------------------------------------------------------

    /** wrk on a new voucher that never runs out. */
    private Wrk.Result intake(ServiceLeg leg, String title, int connections, int seconds, String results,
            boolean forwarded) throws Exception {
        Wrk.Result result = wrk.run(leg.service().base(), leg.newVoucher(title, MAX_STOCK), connections, seconds, 202,
                "orders", forwarded, logs.resolve(results));
        leg.service().checkAlive();
        return result;
    }

    /** wrk on a voucher whose one unit is taken: every answer must be 409 SOLD_OUT. */
    private Wrk.Result soldOut(ServiceLeg leg, String title, int connections, String results) throws Exception {
        long voucher = leg.newVoucher(title, 1);
        leg.api().order(voucher, 1);
        Wrk.Result result = wrk.run(leg.service().base(), voucher, connections, settings.intakeSeconds(), 409, "orders",
                false, logs.resolve(results));
        leg.service().checkAlive();
        return result;
    }

    private static int rate(Wrk.Result result) {
        Double rate = Figures.number(result.rate());
        return rate == null ? 0 : rate.intValue();
    }

    /**
     * The open-loop steady load (Harness load) at RATE, with what stalled Redis and the JVM during its measured part
     * and its picture beside the summary.
     */
    private void steadyLoad(ServiceLeg leg, String label, int rate, String results) throws Exception {
        ChildProcesses.say("steady load (" + label + "): " + rate + " orders/s, unmeasured until steady ("
                + settings.e2eWarmUpSeconds() + "–" + settings.e2eWarmUpMaxSeconds() + " s), then "
                + settings.e2eSeconds() + " s, following one in " + settings.e2eSampleEvery() + " to its row");
        long voucher = leg.newVoucher("steady " + label, MAX_STOCK);
        try (RespConnection redis = leg.service().redis()) {
            StallReports.resetRedisMonitor(redis);
        }
        Path file = logs.resolve(results);
        steps.run(file, null, "load", leg.service().base(), voucher, rate, settings.e2eSeconds(),
                settings.e2eWarmUpSeconds(), settings.e2eWarmUpMaxSeconds(), settings.e2eSampleEvery(),
                settings.e2ePollMillis(), settings.e2eConnections());
        long from = Long.parseLong(ResultLines.read(file).get("load_measured_from_ms"));
        String redisStalls;
        try (RespConnection redis = leg.service().redis()) {
            redisStalls = StallReports.redisStalls(redis, from);
        }
        String jvmStalls = StallReports.jvmStalls(Files.readAllLines(leg.safepointLog()),
                from - leg.service().startedMillis());
        append(file, "redis_stalls=" + redisStalls, "jvm_stalls=" + jvmStalls);
        chart(file, "Steady load (" + label + "): " + Figures.group(String.valueOf(rate)) + " orders/s asked, "
                + settings.e2eConnections() + " connections");
        leg.service().checkAlive();
        Map<String, String> lines = ResultLines.read(file);
        ChildProcesses.say("steady load (" + label + "): steady after " + lines.get("load_warm_up_seconds") + " s ("
                + lines.get("load_warm_up_steady") + "); POST p99 " + lines.get("post_p99") + " ms, 202 → row p99 "
                + lines.get("e2e_p99") + " ms");
    }

    /** The admission script alone at RATE straight to Redis (Harness script), and what stalled Redis meanwhile. */
    private void scriptLoad(ServiceLeg leg, String fsync, int rate) throws Exception {
        ChildProcesses.say("steady load: the admission script alone, " + rate + "/s for " + settings.e2eSeconds()
                + " s straight to Redis (appendfsync " + fsync + ")");
        String sha;
        try (RespConnection redis = leg.service().redis()) {
            sha = RedisBenchmark.load(redis, admitScript);
            RedisBenchmark.freshLimitKeys(redis);
            StallReports.resetRedisMonitor(redis);
        }
        Path file = logs.resolve("steady-script-" + fsync + ".txt");
        steps.run(file, leg.service().redisPassword(), "script", leg.service().redisPort(), rate,
                settings.e2eSeconds(), settings.e2eWarmUpSeconds(), settings.e2eWarmUpMaxSeconds(),
                settings.e2eConnections(), sha, RedisBenchmark.LIMIT_KEYS.size(), RedisBenchmark.LIMIT_KEYS, "__n__",
                1, "__n__", PAYMENT_TIMEOUT_MILLIS, RedisBenchmark.NO_LIMITS);
        try (RespConnection redis = leg.service().redis()) {
            append(file, "redis_stalls=" + StallReports.redisStalls(redis,
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
        SteadyLoadChart.run(new String[] {results.toString(), run.resolve(name).toString(), title});
    }

    /**
     * The drain: the writer stopped over JMX, a backlog admitted straight into Redis with the admission script (ids
     * 8000000000000000001…, buyers 1…N), the writer started and the stream timed to empty (Harness drain), with the
     * CPU each process spent per order meanwhile and how long Redis's main thread ran and waited for a CPU. Returns
     * the backlog's voucher (the raw JDBC baseline writes the same rows).
     */
    private long drain(ServiceLeg leg, String label, boolean postgres) throws Exception {
        int orders = settings.drainOrders();
        ServiceProcess service = leg.service();
        ChildProcesses.say("drain (" + label + "): stopping the writer, then " + orders
                + " orders admitted straight into Redis");
        steps.run(logs.resolve("route-stop-" + label + ".txt"), null, "route", service.pid(), WRITER_ROUTE, "stop");
        long voucher = leg.newVoucher("drain " + label, orders);
        BacklogAdmission.admit(service, admitScript, voucher, orders, PAYMENT_TIMEOUT_MILLIS,
                logs.resolve("backlog-" + label + ".txt"));
        rssDrainFrom = ProcessReadings.resetPeakRss(service.pid()) ? "drain start" : "service start";
        ChildProcesses.say("drain (" + label + "): starting the writer on "
                + leg.redisInteger("XLEN", ServiceLeg.STREAM) + " entries");
        long redisPid = service.redisPid();
        long[] schedule = ProcessReadings.schedule(redisPid);
        long jvm = ProcessReadings.cpuMicros(service.pid());
        long redis = ProcessReadings.cpuMicros(redisPid);
        long pg = postgres ? ProcessReadings.postgresCpuMicros() : 0;
        Path file = logs.resolve("drain-" + label + ".txt");
        steps.run(file, service.redisPassword(), "drain", service.pid(), service.redisPort(), ServiceLeg.STREAM, orders,
                WRITER_ROUTE);
        List<String> lines = new ArrayList<>(List.of(
                "cpu_us_per_order_jvm=" + perOrder(ProcessReadings.cpuMicros(service.pid()) - jvm, orders),
                "cpu_us_per_order_redis=" + perOrder(ProcessReadings.cpuMicros(redisPid) - redis, orders)));
        if (postgres) {
            lines.add("cpu_us_per_order_postgres=" + perOrder(ProcessReadings.postgresCpuMicros() - pg, orders));
        }
        long[] now = ProcessReadings.schedule(redisPid);
        lines.add("redis_ran_ms=" + (now[0] - schedule[0]) / 1_000_000);
        lines.add("redis_waited_ms=" + (now[1] - schedule[1]) / 1_000_000);
        append(file, lines.toArray(String[]::new));
        ChildProcesses.say("drain (" + label + "): " + ResultLines.read(file).get("drain_rate") + " orders/s; peak RSS "
                + ProcessReadings.peakRssMb(service.pid()) + " MB");
        return voucher;
    }

    private static String perOrder(long micros, int orders) {
        return Figures.decimals((double) micros / orders, 1);
    }

    // --- a service under measurement --------------------------------------------------------------------------------

    /**
     * A fresh service from the jar in RUN/DIRECTORY: one stream shard; CONFIG left out of its Redis's refused commands
     * (the bench sets appendfsync and the latency monitor on the running server); its stop-the-world pauses logged.
     */
    @SafeVarargs
    private ServiceLeg start(String directory, String log, List<String>... arguments) throws Exception {
        ChildProcesses.say("starting the service in " + run.resolve(directory) + ", log in " + logs.resolve(log));
        Path safepoints = logs.resolve(log.replaceFirst("\\.log$", "-safepoints.log"));
        List<String> options = new ArrayList<>(settings.javaOptions());
        options.add("-Xlog:safepoint=info:file=" + safepoints + "::filecount=0");
        List<String> all = new ArrayList<>(List.of("--seckill.stream.shards=1",
                "--seckill.redis.refused-commands=module,debug,acl,shutdown",
                "--seckill.stream.batch-size=" + settings.batchSize()));
        Stream.of(arguments).forEach(all::addAll);
        ServiceProcess service = ServiceProcess.start(processes, jar, options, run.resolve(directory),
                logs.resolve(log), all, SERVICE_STOP_GRACE);
        return new ServiceLeg(service, new VoucherApi(service.base()), safepoints, new ArrayList<>());
    }

    // --- files -------------------------------------------------------------------------------------------------------

    private void note(String key, Object value) {
        facts.put(key, value);
    }

    private static void append(Path file, String... lines) throws IOException {
        Files.writeString(file, String.join("\n", lines) + "\n", StandardOpenOption.APPEND);
    }

    private static String toolVersion(String... command) {
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes());
            process.waitFor();
            return output.lines().findFirst().orElse("");
        } catch (IOException e) {
            return "";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "";
        }
    }

    private static String firstWords(String line, int count) {
        String[] words = line.split(" ");
        return String.join(" ", Arrays.asList(words).subList(0, Math.min(count, words.length)));
    }

    private static void delete(Path... folders) throws IOException {
        for (Path folder : folders) {
            if (Files.exists(folder)) {
                try (Stream<Path> paths = Files.walk(folder)) {
                    for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                        Files.delete(path);
                    }
                }
            }
        }
    }
}
