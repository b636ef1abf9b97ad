package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The harness's measuring commands (Harness load, script, flash, drain, jdbc, ...) run as JVMs of their own, each
 * printing its results into a file of its own: on the packaged service's own libraries (the JDBC drivers are the very
 * ones the service writes with), and with a JIT and heap of their own rather than the driver's, as every run under
 * bench/runs measured them.
 */
final class HarnessSteps {

    private final ChildProcesses processes;
    private final String classpath;

    /** HARNESS the run's copy of the harness's classes, LIB the service jar's libraries, unpacked. */
    HarnessSteps(ChildProcesses processes, Path harness, Path lib) {
        this.processes = processes;
        this.classpath = harness + ":" + lib + "/*";
    }

    /** Runs {@code Harness COMMAND ARGUMENTS...} with results into OUTPUT; REDIS_PASSWORD for its Redis connections. */
    void run(Path output, String redisPassword, String command, Object... arguments)
            throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of("java", "-Xms256m", "-Xmx1g", "-cp", classpath,
                Harness.class.getName(), command));
        for (Object argument : arguments) {
            if (argument instanceof List<?> list) {
                list.forEach(a -> line.add(String.valueOf(a)));
            } else {
                line.add(String.valueOf(argument));
            }
        }
        ProcessBuilder builder = new ProcessBuilder(line);
        if (redisPassword != null) {
            builder.environment().put("REDISCLI_AUTH", redisPassword);
        }
        processes.run(output, builder);
    }
}
