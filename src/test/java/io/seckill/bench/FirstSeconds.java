package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The first seconds of a sale (issue 33), run by bench/first-seconds.sh: {@code Harness first-seconds ROOT RUN JAR
 * [SERVICE ARGUMENTS...]}, ROOT the repository (jvm.options, lua/, bench/), RUN the run's folder (summary.md, logs/,
 * work/), JAR the packaged service. Three legs, every service a fresh start of the jar with the recommended JVM options
 * and the defaults (the per-address limit off: one load generator is one address):
 * <ul>
 * <li>cold: accepted orders/s and POST p99 in each of the first windows after readiness, each window a voucher of its
 * own (wrk's buyers start again at each run), for the service and then for a fresh reference controller;</li>
 * <li>flood: a sold-out voucher's refusals/s against the reference answering a constant 409 on the same engine, and
 * against the service's accepted rate in its last cold window;</li>
 * <li>start: a sale of 20,000 units whose beginAt is 10 s after a fresh service is ready, wrk's flood from readiness,
 * the time from beginAt to sold out against 20,000 / the script's own rate (redis-benchmark, 50 clients); then the
 * same sale again on the same service, the control that separates what a new service pays from what any start
 * costs; on several fresh services (BENCH_SALE_SERVICES), whose median is the verdict: one fresh service's sale
 * varied by up to a third from one start to the next on one machine.</li>
 * </ul>
 */
final class FirstSeconds {

    /** The script's payment window in the script-alone run: the service's default, 15 minutes. */
    private static final long SCRIPT_PAYMENT_WINDOW_MILLIS = 900_000;
    private static final DateTimeFormatter BEGIN_AT = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSS'Z'")
            .withZone(ZoneOffset.UTC);

    /**
     * The run's sizes. The windows, the flood and the fresh services given the sale can be cut (BENCH_WINDOWS,
     * BENCH_WINDOW_SECONDS, BENCH_FLOOD_SECONDS, BENCH_SALE_SERVICES, in bench/settings.txt) to check the harness in a
     * few minutes; the figures of such a run do not compare.
     */
    record Settings(int connections, int windows, int windowSeconds, int floodSeconds, int saleStock,
            int saleDelaySeconds, int saleServices, int scriptRequests, int scriptClients) {

        /** From FILE, the [first-seconds.sh] section. */
        static Settings from(SettingsFile file) {
            return new Settings(50, positive(file, "BENCH_WINDOWS"), positive(file, "BENCH_WINDOW_SECONDS"),
                    positive(file, "BENCH_FLOOD_SECONDS"), 20_000, 10, positive(file, "BENCH_SALE_SERVICES"), 200_000,
                    50);
        }

        private static int positive(SettingsFile file, String name) {
            int number = file.number(name);
            if (number <= 0) {
                throw new IllegalArgumentException(name + " must be above 0: " + number);
            }
            return number;
        }
    }

    private final Path root;
    private final Path run;
    private final Path logs;
    private final Path jar;
    private final List<String> serviceArgs;
    private final Settings settings;
    private final ChildProcesses processes;
    private final List<String> javaOptions;
    private final Wrk wrk;

    private FirstSeconds(Path root, Path run, Path jar, List<String> serviceArgs, Settings settings,
            ChildProcesses processes) {
        this.root = root;
        this.run = run;
        this.logs = run.resolve("logs");
        this.jar = jar;
        this.serviceArgs = serviceArgs;
        this.settings = settings;
        this.processes = processes;
        this.javaOptions = List.of("@" + root.resolve("jvm.options"));
        this.wrk = new Wrk(processes, root.resolve("bench/intake.lua"), 2);
    }

    static void run(String[] args) throws Exception {
        if (args.length < 3) {
            throw new IllegalArgumentException("usage: Harness first-seconds ROOT RUN JAR [SERVICE ARGUMENTS...]");
        }
        Path root = Path.of(args[0]).toAbsolutePath();
        Path run = Path.of(args[1]).toAbsolutePath();
        Files.createDirectories(run.resolve("logs"));
        StopNotice notice = new StopNotice(run.resolve("logs"));
        try (ChildProcesses processes = new ChildProcesses(notice)) {
            Settings settings = Settings.from(SettingsFile.read(root, "first-seconds.sh", System::getenv, false));
            List<String> serviceArgs = List.of(Arrays.copyOfRange(args, 3, args.length));
            String summary = new FirstSeconds(root, run, Path.of(args[2]), serviceArgs, settings, processes).measure();
            Files.writeString(run.resolve("summary.md"), summary);
            System.out.print(summary);
        } catch (Exception e) {
            if (notice.failed(e)) {
                throw e;
            } // else interrupted: said already, and the JVM is on its way out
        }
    }

    private String measure() throws Exception {
        MachineFacts machine = MachineFacts.read();
        Path lib = ReferenceController.unpackLibraries(jar, run.resolve("work/jar"));
        ReferenceController reference = ReferenceController.compile(
                root.resolve("bench/reference/ReferenceIntake.java"), lib, run.resolve("work/reference"));

        // cold and flood: a fresh service, then a fresh reference, from readiness
        ServiceProcess service = startService("service-cold");
        VoucherApi vouchers = new VoucherApi(service.base());
        List<Wrk.Result> serviceWindows = coldWindows("service", service.base(), vouchers);
        long soldOut = vouchers.create("first seconds", 1, null);
        vouchers.order(soldOut, 1);
        Wrk.Result floodService = wrk.run(service.base(), soldOut, settings.connections(), settings.floodSeconds(), 409,
                "orders", false, logs.resolve("flood-service.txt"));
        ChildProcesses.say("flood: the service refuses " + floodService.rate() + "/s");

        ReferenceController.Running controller = reference.start(processes, javaOptions, service,
                root.resolve("lua/admitOrder-6.lua"), logs.resolve("reference.log"));
        List<Wrk.Result> referenceWindows = coldWindows("reference", controller.base(), vouchers);
        Wrk.Result floodConstant = wrk.run(controller.base(), 1, settings.connections(), settings.floodSeconds(), 409,
                "refused", false, logs.resolve("flood-constant.txt"));
        ChildProcesses.say("flood: the engine's constant 409 at " + floodConstant.rate() + "/s");
        controller.stop();
        service.stop();

        // start: a sale opening a few seconds after a fresh service is ready; then the same sale again on the same
        // service, which tells what the first one paid for the service being new from what any start costs; on
        // several fresh services, the script alone on the last one's Redis
        List<SaleStart> starts = new ArrayList<>();
        List<SaleStart> agains = new ArrayList<>();
        String scriptRate = null;
        for (int fresh = 1; fresh <= settings.saleServices(); fresh++) {
            service = startService("service-start-" + fresh);
            vouchers = new VoucherApi(service.base());
            starts.add(sale(service, vouchers, "start-" + fresh));
            agains.add(sale(service, vouchers, "start-again-" + fresh));
            if (fresh == settings.saleServices()) {
                scriptRate = Figures.decimals(Double.parseDouble(new RedisBenchmark(processes).admissionScriptRate(
                        service, root.resolve("lua/admitOrder-6.lua"), settings.scriptClients(), 1,
                        settings.scriptRequests(), SCRIPT_PAYMENT_WINDOW_MILLIS, logs.resolve("script.csv"))), 0);
                ChildProcesses.say("start: the script alone at " + scriptRate + "/s");
            }
            service.stop();
        }

        return new FirstSecondsSummary(MachineFacts.commit(root, "+changes"), machine, settings, serviceArgs,
                serviceWindows, referenceWindows, floodService, floodConstant, starts, agains, scriptRate).markdown();
    }

    /**
     * A sale of the settings' stock whose beginAt is a few seconds away, wrk's flood on it from now; LABEL names its
     * logs.
     */
    private SaleStart sale(ServiceProcess service, VoucherApi vouchers, String label)
            throws IOException, InterruptedException {
        long beginMillis = StockPoll.redisMillis(service) + settings.saleDelaySeconds() * 1000L;
        long sale = vouchers.create("first seconds", settings.saleStock(),
                BEGIN_AT.format(Instant.ofEpochMilli(beginMillis)));
        Path stock = logs.resolve(label + "-stock.txt");
        Wrk.Result flood;
        try (StockPoll poll = new StockPoll(service, "seckill:{s0}:voucher:" + sale, stock,
                settings.saleDelaySeconds() + 30)) {
            flood = wrk.run(service.base(), sale, settings.connections(), settings.saleDelaySeconds() + 15, 409,
                    "orders", false, logs.resolve(label + "-flood.txt"));
        }
        SaleStart start = SaleStart.of(Files.readAllLines(stock), beginMillis, settings.saleStock(), flood)
                .orElseThrow(() -> new IOException("not sold out within the flood: " + stock));
        ChildProcesses.say(label + ": sold out " + start.seconds() + " s after beginAt, " + start.firstSecondUnits()
                + " units in its first second");
        return start;
    }

    private ServiceProcess startService(String name) throws IOException, InterruptedException {
        List<String> arguments = new ArrayList<>(List.of("--seckill.rate-limit.per-address.rate=0"));
        arguments.addAll(serviceArgs);
        return ServiceProcess.start(processes, jar, javaOptions, run.resolve(name), logs.resolve(name + ".log"),
                arguments, Duration.ofSeconds(60));
    }

    /** Back-to-back windows from readiness, each on a voucher of its own: wrk's buyers start again at each run. */
    private List<Wrk.Result> coldWindows(String label, String base, VoucherApi vouchers)
            throws IOException, InterruptedException {
        List<Wrk.Result> windows = new ArrayList<>();
        for (int w = 1; w <= settings.windows(); w++) {
            long voucher = vouchers.create("first seconds", 10_000_000, null);
            windows.add(wrk.run(base, voucher, settings.connections(), settings.windowSeconds(), 202, "orders", false,
                    logs.resolve("cold-" + label + "-" + w + ".txt")));
        }
        ChildProcesses.say(label + ": last window " + windows.get(windows.size() - 1).rate() + " accepted/s");
        return windows;
    }
}
