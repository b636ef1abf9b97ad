package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The admission script's own rate in the service's Redis: redis-benchmark running {@code EVALSHA} with a random buyer
 * per call on keys of the bench's own ({@code bench:limit:*}, removed afterwards), the limit the intake is measured
 * against.
 */
final class RedisBenchmark {

    /** The script's six keys: a voucher with stock enough for any run, and the sets and streams it writes. */
    static final List<String> LIMIT_KEYS = List.of("bench:limit:voucher", "bench:limit:buyers", "bench:limit:orders",
            "bench:limit:due", "bench:limit:rb", "bench:limit:ra");

    private final ChildProcesses processes;

    RedisBenchmark(ChildProcesses processes) {
        this.processes = processes;
    }

    /**
     * Loads SCRIPT into the service's Redis and runs it REQUESTS times from CLIENTS clients (PIPELINE commands in
     * flight each, 1 for none); the CSV goes to OUTPUT. Returns the requests per second, unrounded, as printed.
     */
    String admissionScriptRate(ServiceProcess service, Path script, int clients, int pipeline, int requests,
            Path output) throws IOException, InterruptedException {
        String sha;
        try (RespConnection redis = service.redis()) {
            sha = (String) redis.call("SCRIPT", "LOAD", Files.readString(script));
            redis.call("HSET", "bench:limit:voucher", "stock", "1000000000", "beginAt", "0");
        }
        List<String> command = new ArrayList<>(List.of("redis-benchmark", "-p", String.valueOf(service.redisPort())));
        if (service.redisPassword() != null) {
            command.addAll(List.of("-a", service.redisPassword()));
        }
        command.addAll(List.of("-c", String.valueOf(clients), "-n", String.valueOf(requests), "-r", "2000000000"));
        if (pipeline > 1) {
            command.addAll(List.of("-P", String.valueOf(pipeline)));
        }
        command.addAll(List.of("--csv", "EVALSHA", sha, "6"));
        command.addAll(LIMIT_KEYS);
        command.addAll(List.of("__rand_int__", "1", "__rand_int__", "900000", "0", "0", "0", "0", "0"));
        try {
            processes.run(output, new ProcessBuilder(command));
        } finally {
            try (RespConnection redis = service.redis()) {
                List<String> unlink = new ArrayList<>(List.of("UNLINK"));
                unlink.addAll(LIMIT_KEYS);
                redis.call(unlink.toArray(String[]::new));
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
