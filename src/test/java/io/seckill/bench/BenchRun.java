package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * The full run of bench/run.sh (bench/README.md, "What one run does"): {@code Harness run ROOT RUN JAR QUICK}, ROOT
 * the repository, RUN the run's folder (its harness copy in work/harness), JAR the packaged service, QUICK 1 for the
 * short settings. Exits 1 when a correctness check failed. The legs in order, each a class of its own:
 * {@link H2Leg} (1), {@link RateLimitedLeg} (2), {@link NettyLeg} (2b), {@link PostgresLeg} (3),
 * {@link UnpaidWinnersLeg} (4); then the summary ({@link Summary}) from every step's results in logs/ and the facts in
 * logs/run.txt ({@link RunFacts}).
 */
final class BenchRun {

    private final Path root;
    private final Path run;
    private final Path jar;
    private final BenchSettings settings;
    private final ChildProcesses processes;

    private BenchRun(Path root, Path run, Path jar, BenchSettings settings, ChildProcesses processes) {
        this.root = root;
        this.run = run;
        this.jar = jar;
        this.settings = settings;
        this.processes = processes;
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
        StopNotice notice = new StopNotice(run.resolve("logs"));
        // the processes are stopped before the databases are dropped (resources close in reverse)
        try (PostgresDatabases databases = new PostgresDatabases();
                ChildProcesses processes = new ChildProcesses(notice)) {
            if (settings.keepData()) {
                databases.keep();
            }
            failed = new BenchRun(root, run, Path.of(args[2]), settings, processes).measure(databases);
            if (failed > 0) {
                databases.keep();
            }
        } catch (Exception e) {
            if (notice.failed(e)) {
                throw e;
            }
            return; // interrupted: said already, and the JVM is on its way out
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
        Path work = run.resolve("work");
        Path lib = ReferenceController.unpackLibraries(jar, work.resolve("jar"));
        HarnessSteps steps = new HarnessSteps(processes, work.resolve("harness"), lib);
        ReferenceController reference = ReferenceController.compile(
                root.resolve("bench/reference/ReferenceIntake.java"), lib, work.resolve("reference"));
        RunContext context = new RunContext(root, run, jar, settings, processes, steps,
                new Wrk(processes, root.resolve("bench/intake.lua"), settings.wrkThreads()), reference, new RunFacts());

        H2Leg.Result one = new H2Leg(context).measure();
        int longWarmUp = settings.longWarmUpSeconds();
        new RateLimitedLeg(context).measure(one.bestConnections(), longWarmUp);
        NettyLeg.Result netty = new NettyLeg(context).measure(one.bestConnections(), one.referenceConnections(),
                longWarmUp);
        boolean pg = new PostgresLeg(context).measure(databases, one.e2eRate(), longWarmUp);
        new UnpaidWinnersLeg(context).measure();

        noteTheRun(context, machine, one, pg, netty.rate(), netty.connections());
        context.facts().write(context.logs());
        Summary summary = new Summary(new RunFiles(run));
        String markdown = summary.markdown();
        Files.writeString(run.resolve(Summary.FILE), markdown);
        int failed = summary.failures();
        Files.writeString(context.log("summary.txt"), "summary_failed_checks=" + failed + "\n");
        System.out.println();
        System.out.print(markdown);
        System.out.println();
        return failed;
    }

    /** The facts of the whole run for the summary: when, where, with what, the settings, what leg 1 chose. */
    private void noteTheRun(RunContext context, MachineFacts machine, H2Leg.Result one, boolean pg, int nettyRate,
            int nettyConnections) throws Exception {
        RunFacts facts = context.facts();
        facts.note("date", ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm")));
        facts.note("quick", settings.quick() ? 1 : 0);
        long memoryKb = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal"))
                .map(l -> Long.parseLong(l.replaceAll("\\D", ""))).findFirst().orElse(0L);
        facts.note("machine", machine.cpus() + " CPUs (" + machine.cpuModel() + "), "
                + Figures.decimals(memoryKb / 1048576.0, 1) + " GiB of memory, Linux "
                + System.getProperty("os.version"));
        facts.note("cpus", machine.cpus());
        facts.note("java_version", machine.javaVersion());
        facts.note("redis_version", one.redisVersion());
        facts.note("pg_version", pg ? PostgresDatabases.version() : "");
        facts.note("wrk_version", firstWords(MachineFacts.firstLine(new ProcessBuilder("wrk", "--version")), 2));
        facts.note("redis_benchmark_version",
                firstWords(MachineFacts.firstLine(new ProcessBuilder("redis-benchmark", "--version")), 2));
        facts.note("load_at_start", machine.loadAverage());
        facts.note("git", MachineFacts.commit(root, " + local changes"));
        facts.note("java_opts", settings.javaOptionsText());
        facts.note("malloc_arena_max", settings.mallocArenaMax());
        facts.note("batch_size", settings.batchSize());
        facts.note("fsync_default", one.fsyncDefault());
        facts.note("fsync_other", one.fsyncOther());
        facts.note("admit_script", context.admitScript().getFileName());
        facts.note("warmup_seconds", settings.warmUpSeconds());
        facts.note("intake_seconds", settings.intakeSeconds());
        facts.note("connections", String.join(" ", settings.connections().stream().map(String::valueOf).toList()));
        facts.note("best_connections", one.bestConnections());
        facts.note("reference_connections", one.referenceConnections());
        facts.note("netty_rounds", settings.nettyRounds());
        facts.note("netty_connections", nettyConnections);
        facts.note("limit_requests", settings.limitRequests());
        facts.note("limit_clients", settings.limitClients());
        facts.note("limit_pipeline", settings.limitPipeline());
        facts.note("e2e_rate", one.e2eRate());
        facts.note("e2e_rate_netty", nettyRate / 2);
        facts.note("e2e_seconds", settings.e2eSeconds());
        facts.note("e2e_warmup_seconds", settings.e2eWarmUpSeconds());
        facts.note("e2e_warmup_max_seconds", settings.e2eWarmUpMaxSeconds());
        facts.note("e2e_connections", settings.e2eConnections());
        facts.note("e2e_sample_every", settings.e2eSampleEvery());
        facts.note("e2e_poll_millis", settings.e2ePollMillis());
        facts.note("drain_orders", settings.drainOrders());
        facts.note("flash_stock", settings.flashStock());
        facts.note("flash_requests", settings.flashRequests());
        facts.note("flash_buyers", settings.flashBuyers());
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
