package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

/** The run's settings, BENCH_* in the environment over the defaults of a full or a quick run (run.sh --help). */
record BenchSettings(boolean quick, int warmUpSeconds, int intakeSeconds, List<Integer> connections, int wrkThreads,
        int limitRequests, int limitClients, int limitPipeline, Integer e2eRate, int e2eSeconds,
        int e2eWarmUpSeconds, int e2eWarmUpMaxSeconds, int e2eConnections, int e2eSampleEvery,
        int e2ePollMillis, int drainOrders, int flashStock, int flashRequests, int flashBuyers,
        int flashConcurrency, int batchSize, List<String> javaOptions, String javaOptionsText, boolean postgres,
        String pgUrl, int paymentWindowSeconds, boolean keepData) {

    static BenchSettings from(Function<String, String> env, boolean quick, Path root) throws IOException {
        Function<String, String> value = name -> env.apply(name) == null ? null : env.apply(name).strip();
        String javaOptions = env.apply("BENCH_JAVA_OPTS") != null ? env.apply("BENCH_JAVA_OPTS")
                : "@" + root.resolve("jvm.options");
        String batch = value.apply("BENCH_BATCH_SIZE");
        BenchSettings settings = new BenchSettings(quick,
                number(value, "BENCH_WARMUP_SECONDS", quick ? 10 : 240),
                number(value, "BENCH_INTAKE_SECONDS", quick ? 5 : 30),
                Arrays.stream(text(value, "BENCH_CONNECTIONS", quick ? "16 64" : "16 64 256").split("\\s+"))
                        .map(Integer::valueOf).toList(),
                number(value, "BENCH_WRK_THREADS", 2),
                number(value, "BENCH_LIMIT_REQUESTS", quick ? 100_000 : 1_000_000),
                number(value, "BENCH_LIMIT_CLIENTS", 50),
                number(value, "BENCH_LIMIT_PIPELINE", 16),
                value.apply("BENCH_E2E_RATE") == null || value.apply("BENCH_E2E_RATE").isEmpty() ? null
                        : Integer.valueOf(value.apply("BENCH_E2E_RATE")),
                number(value, "BENCH_E2E_SECONDS", quick ? 10 : 60),
                number(value, "BENCH_E2E_WARMUP_SECONDS", quick ? 3 : 15),
                number(value, "BENCH_E2E_WARMUP_MAX_SECONDS", quick ? 15 : 60),
                number(value, "BENCH_E2E_CONNECTIONS", 64),
                number(value, "BENCH_E2E_SAMPLE_EVERY", 100),
                number(value, "BENCH_E2E_POLL_MILLIS", 5),
                number(value, "BENCH_DRAIN_ORDERS", quick ? 50_000 : 500_000),
                number(value, "BENCH_FLASH_STOCK", 1000),
                number(value, "BENCH_FLASH_REQUESTS", quick ? 20_000 : 50_000),
                number(value, "BENCH_FLASH_BUYERS", quick ? 6000 : 20_000),
                number(value, "BENCH_FLASH_CONCURRENCY", 64),
                batch == null || batch.isEmpty() ? serviceBatchSize(root) : Integer.parseInt(batch),
                javaOptions.isBlank() ? List.of() : List.of(javaOptions.strip().split("\\s+")), javaOptions,
                number(value, "BENCH_POSTGRES", 1) != 0,
                text(value, "BENCH_PG_URL", "jdbc:postgresql://127.0.0.1:5432/"),
                number(value, "BENCH_PAYMENT_WINDOW_SECONDS", 30),
                number(value, "BENCH_KEEP_DATA", 0) != 0);
        if (settings.drainOrders() > BenchRun.MAX_STOCK) {
            throw new IllegalArgumentException("BENCH_DRAIN_ORDERS is at most " + BenchRun.MAX_STOCK
                    + " (the largest voucher stock)");
        }
        return settings;
    }

    private static int number(Function<String, String> env, String name, int fallback) {
        String value = env.apply(name);
        return value == null || value.isEmpty() ? fallback : Integer.parseInt(value);
    }

    private static String text(Function<String, String> env, String name, String fallback) {
        String value = env.apply(name);
        return value == null || value.isEmpty() ? fallback : value;
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
