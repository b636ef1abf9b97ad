package io.seckill.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What a summary says of the machine and the build a run measured: the figures of a shared 2-core machine mean
 * little without its CPU, its JDK and how busy it was before the run.
 *
 * @param cpus        the CPUs this process may use (nproc)
 * @param cpuModel    the first "model name" of /proc/cpuinfo
 * @param javaVersion the first line of {@code java -version}, the JDK the children run on
 * @param loadAverage the 1, 5 and 15 minute load averages, as /proc/loadavg has them
 */
record MachineFacts(int cpus, String cpuModel, String javaVersion, String loadAverage) {

    static MachineFacts read() throws IOException, InterruptedException {
        String model = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("unknown");
        String[] load = Files.readString(Path.of("/proc/loadavg")).split(" ");
        return new MachineFacts(Runtime.getRuntime().availableProcessors(), model,
                firstLine(new ProcessBuilder("java", "-version")), load[0] + " " + load[1] + " " + load[2]);
    }

    /**
     * The commit ROOT has checked out, short, followed by CHANGED when tracked files differ from it (staged or not;
     * files git does not track do not count).
     */
    static String commit(Path root, String changed) throws IOException, InterruptedException {
        String head = firstLine(new ProcessBuilder("git", "-C", root.toString(), "rev-parse", "--short", "HEAD"));
        String status = firstLine(new ProcessBuilder("git", "-C", root.toString(), "status", "--porcelain",
                "--untracked-files=no"));
        return head + (status.isEmpty() ? "" : changed);
    }

    /** The first line COMMAND prints, its errors included. */
    static String firstLine(ProcessBuilder command) throws IOException, InterruptedException {
        Process process = command.redirectErrorStream(true).start();
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        process.waitFor();
        return output.lines().findFirst().orElse("");
    }
}
