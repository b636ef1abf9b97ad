package io.seckill.bench;

import java.util.Arrays;

/**
 * The Java side of bench/run.sh and bench/first-seconds.sh: the measurements wrk and redis-benchmark cannot make, and
 * (first-seconds) the whole run around them. Compiled with the tests (so every build compiles it); run.sh runs it on
 * the packaged service's own libraries (BOOT-INF/lib), so the JDBC drivers are the very ones the service writes with. Every command prints its results as {@code key=value} lines
 * ({@link ResultLines}); each command's class documents its arguments.
 */
public final class Harness {

    private Harness() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            throw new IllegalArgumentException(
                    "usage: Harness load|script|flash|route|drain|jdbc|verify|pay|statuses|chart|summary|first-seconds|run"
                            + " ARGUMENTS...");
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "load" -> SteadyLoad.run(rest);
            case "script" -> ScriptLoad.run(rest);
            case "flash" -> FlashCrowd.run(rest);
            case "route" -> RouteSwitch.run(rest);
            case "drain" -> BacklogDrain.run(rest);
            case "jdbc" -> JdbcBaseline.run(rest);
            case "verify" -> DatabaseCheck.run(rest);
            case "pay" -> Payments.run(rest);
            case "statuses" -> OrderStatuses.run(rest);
            case "chart" -> SteadyLoadChart.run(rest);
            case "summary" -> Summary.run(rest);
            case "first-seconds" -> FirstSeconds.run(rest);
            case "run" -> BenchRun.run(rest);
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }
}
