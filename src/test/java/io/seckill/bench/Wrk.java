package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * wrk with bench/intake.lua: POST /api/vouchers/{id}/orders (or the reference's constant 409, ENDPOINT "refused"),
 * a new buyer per request. wrk stays the intake's load generator: every intake figure under bench/runs was measured
 * with it. Its output (ending in intake.lua's {@code bench_*} lines) goes to a file of its own, read back as a
 * {@link Result}, with the share of the CPUs' time the hypervisor took meanwhile ({@link CpuSteal}).
 */
final class Wrk {

    /** The result line of the percentage of the CPUs' time stolen while wrk ran. */
    static final String STOLEN = "bench_cpu_stolen_pct";

    private final ChildProcesses processes;
    private final Path script;
    private final int threads;

    Wrk(ChildProcesses processes, Path script, int threads) {
        this.processes = processes;
        this.script = script;
        this.threads = threads;
    }

    /** One run; EXPECTED is the status every answer should have, FORWARDED adds a per-buyer X-Forwarded-For. */
    Result run(String base, long voucher, int connections, int seconds, int expected, String endpoint,
            boolean forwarded, Path output) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("wrk", "-t", String.valueOf(Math.min(threads, connections)),
                "-c", String.valueOf(connections), "-d", seconds + "s", "--timeout", "10s", "--latency", "-s",
                script.toString(), base, "--", String.valueOf(voucher), String.valueOf(expected),
                forwarded ? "xff" : "", endpoint));
        CpuSteal before = CpuSteal.now();
        processes.run(output, new ProcessBuilder(command));
        ResultLines.append(output, STOLEN + "=" + CpuSteal.now().percentSince(before));
        return Result.of(ResultLines.read(output));
    }

    /** What intake.lua printed: the figures are strings as the summary prints them, "n/a" when a line is missing. */
    record Result(Map<String, String> lines) {

        static Result of(Map<String, String> lines) {
            return new Result(Map.copyOf(lines));
        }

        /** Answers of the expected status per second, no decimals. */
        String rate() {
            return Figures.wrkRate(lines);
        }

        /** The percentage of the CPUs' time stolen by the hypervisor while wrk ran, one decimal. */
        String stolenPercent() {
            return lines.getOrDefault(STOLEN, Figures.NONE);
        }

        /** The 99th percentile of the latency in milliseconds, one decimal. */
        String p99Millis() {
            Double micros = Figures.number(lines.get("bench_p99_us"));
            return micros == null ? Figures.NONE : Figures.decimals(micros / 1000, 1);
        }
    }
}
