package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * The run's settings, BENCH_* in the environment over the defaults of a full or a quick run in bench/settings.txt
 * (run.sh --help prints them).
 */
record BenchSettings(boolean quick, int warmUpSeconds, int intakeSeconds, List<Integer> connections, int wrkThreads,
        int nettyRounds, int limitRequests, int limitClients, int limitPipeline, Integer e2eRate, int e2eSeconds,
        int e2eWarmUpSeconds, int e2eWarmUpMaxSeconds, int e2eConnections, int e2eSampleEvery,
        int e2ePollMillis, int drainOrders, int flashStock, int flashRequests, int flashBuyers,
        int flashConcurrency, int batchSize, List<String> javaOptions, String javaOptionsText, String mallocArenaMax,
        boolean postgres, String pgUrl, int paymentWindowSeconds, boolean keepData) {

    static BenchSettings from(Function<String, String> env, boolean quick, Path root) throws IOException {
        return from(SettingsFile.read(root, "run.sh", env, quick), root);
    }

    /** From FILE, the [run.sh] section; ROOT for the defaults the repository holds (jvm.options, the batch size). */
    static BenchSettings from(SettingsFile file, Path root) throws IOException {
        String javaOptions = Objects.requireNonNullElse(file.environment("BENCH_JAVA_OPTS"),
                "@" + root.resolve("jvm.options"));
        String e2eRate = file.text("BENCH_E2E_RATE");
        String batch = file.text("BENCH_BATCH_SIZE");
        BenchSettings settings = new BenchSettings(file.quick(),
                file.number("BENCH_WARMUP_SECONDS"),
                file.number("BENCH_INTAKE_SECONDS"),
                Arrays.stream(file.text("BENCH_CONNECTIONS").split("\\s+")).map(Integer::valueOf).toList(),
                file.number("BENCH_WRK_THREADS"),
                file.number("BENCH_NETTY_ROUNDS"),
                file.number("BENCH_LIMIT_REQUESTS"),
                file.number("BENCH_LIMIT_CLIENTS"),
                file.number("BENCH_LIMIT_PIPELINE"),
                e2eRate == null ? null : file.number("BENCH_E2E_RATE"),
                file.number("BENCH_E2E_SECONDS"),
                file.number("BENCH_E2E_WARMUP_SECONDS"),
                file.number("BENCH_E2E_WARMUP_MAX_SECONDS"),
                file.number("BENCH_E2E_CONNECTIONS"),
                file.number("BENCH_E2E_SAMPLE_EVERY"),
                file.number("BENCH_E2E_POLL_MILLIS"),
                file.number("BENCH_DRAIN_ORDERS"),
                file.number("BENCH_FLASH_STOCK"),
                file.number("BENCH_FLASH_REQUESTS"),
                file.number("BENCH_FLASH_BUYERS"),
                file.number("BENCH_FLASH_CONCURRENCY"),
                batch == null ? serviceBatchSize(root) : file.number("BENCH_BATCH_SIZE"),
                javaOptions.isBlank() ? List.of() : List.of(javaOptions.strip().split("\\s+")), javaOptions,
                Objects.requireNonNullElse(file.environment("MALLOC_ARENA_MAX"), ""),
                file.number("BENCH_POSTGRES") != 0,
                file.text("BENCH_PG_URL"),
                file.number("BENCH_PAYMENT_WINDOW_SECONDS"),
                file.number("BENCH_KEEP_DATA") != 0);
        if (settings.drainOrders() > ServiceLeg.MAX_STOCK) {
            throw new IllegalArgumentException("BENCH_DRAIN_ORDERS is at most " + ServiceLeg.MAX_STOCK
                    + " (the largest voucher stock)");
        }
        return settings;
    }

    /** seckill.stream.batch-size in the service's application.yaml, the writer's batch. */
    static int serviceBatchSize(Path root) throws IOException {
        boolean inStream = false;
        for (String line : Files.readAllLines(root.resolve("src/main/resources/application.yaml"))) {
            if (line.matches("^  [a-z].*")) {
                inStream = line.startsWith("  stream:");
            } else if (inStream && line.strip().startsWith("batch-size:")) {
                return Integer.parseInt(line.strip().substring("batch-size:".length()).strip().split("\\s")[0]);
            }
        }
        throw new IOException("no seckill.stream.batch-size in application.yaml");
    }

    /** Warm-up of a restarted service: as much load as leg 1's best level had seen (the JIT gains for minutes). */
    int longWarmUpSeconds() {
        return warmUpSeconds + intakeSeconds * connections.size();
    }
}
