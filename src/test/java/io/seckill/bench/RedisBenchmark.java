package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The admission script's own rate in the service's Redis: redis-benchmark running {@code EVALSHA} with a random buyer
 * per call on keys of the bench's own ({@code bench:limit:*}, removed afterwards), so the service's writer never sees
 * these orders while the script's work is the same: the limit the intake is measured against.
 */
final class RedisBenchmark {

    /** The script's six keys: a voucher with stock enough for any run, the buyers, the stream, its due set, limits. */
    static final List<String> LIMIT_KEYS = List.of("bench:limit:voucher", "bench:limit:buyers", "bench:limit:orders",
            "bench:limit:due", "bench:limit:rb", "bench:limit:ra");
    /** The script's last five arguments: both rate limits off, as in the service's limits-off runs. */
    static final List<String> NO_LIMITS = List.of("0", "0", "0", "0", "0");

    private final ChildProcesses processes;

    RedisBenchmark(ChildProcesses processes) {
        this.processes = processes;
    }

    /** Loads SCRIPT into Redis; its SHA. */
    static String load(RespConnection redis, Path script) throws IOException {
        Object sha = redis.call("SCRIPT", "LOAD", Files.readString(script));
        if (!(sha instanceof String text) || text.startsWith("-")) {
            throw new IOException("Redis did not load " + script + ": " + sha);
        }
        return text;
    }

    /** The limit keys emptied and the voucher's stock set, before each run on them. */
    static void freshLimitKeys(RespConnection redis) throws IOException {
        removeLimitKeys(redis);
        redis.call("HSET", LIMIT_KEYS.get(0), "stock", "1000000000", "beginAt", "0");
    }

    static void removeLimitKeys(RespConnection redis) throws IOException {
        List<String> unlink = new ArrayList<>(List.of("UNLINK"));
        unlink.addAll(LIMIT_KEYS);
        redis.call(unlink.toArray(String[]::new));
    }

    /**
     * Runs SCRIPT REQUESTS times from CLIENTS clients (PIPELINE commands in flight each), the orders with a payment
     * window of PAYMENT_WINDOW_MILLIS; the CSV goes to OUTPUT. Returns the requests per second as printed.
     */
    String admissionScriptRate(ServiceProcess service, Path script, int clients, int pipeline, int requests,
            long paymentWindowMillis, Path output) throws IOException, InterruptedException {
        String sha;
        try (RespConnection redis = service.redis()) {
            sha = load(redis, script);
            freshLimitKeys(redis);
        }
        List<String> command = new ArrayList<>(List.of("redis-benchmark", "-p", String.valueOf(service.redisPort())));
        if (service.redisPassword() != null) {
            command.addAll(List.of("-a", service.redisPassword()));
        }
        command.addAll(List.of("-c", String.valueOf(clients), "-P", String.valueOf(pipeline), "-n",
                String.valueOf(requests), "-r", "2000000000", "--csv", "EVALSHA", sha,
                String.valueOf(LIMIT_KEYS.size())));
        command.addAll(LIMIT_KEYS);
        command.addAll(List.of("__rand_int__", "1", "__rand_int__", String.valueOf(paymentWindowMillis)));
        command.addAll(NO_LIMITS);
        try {
            processes.run(output, new ProcessBuilder(command));
        } finally {
            try (RespConnection redis = service.redis()) {
                removeLimitKeys(redis);
            }
        }
        return requestsPerSecond(Files.readAllLines(output));
    }

    /** The second field of the CSV's last line (redis-benchmark quotes every field); "n/a" without one. */
    static String requestsPerSecond(List<String> csv) {
        if (csv.isEmpty()) {
            return Figures.NONE;
        }
        String[] fields = csv.get(csv.size() - 1).split("\",\"");
        return fields.length < 2 ? Figures.NONE : fields[1].replace("\"", "");
    }
}
