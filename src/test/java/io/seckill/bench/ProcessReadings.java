package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * What the kernel says of a process in /proc: the CPU it has used, its peak resident set, and how long it ran and
 * waited for a CPU. The figures the summary sets beside a drain's rows and the memory target.
 */
final class ProcessReadings {

    /** Clock ticks per second of /proc/PID/stat's times: 100 on every Linux the bench runs on (getconf CLK_TCK). */
    private static final long TICKS_PER_SECOND = 100;

    private ProcessReadings() {
    }

    /** CPU time, user + system, in µs; 0 for a process that has gone (a PostgreSQL backend that exited meanwhile). */
    static long cpuMicros(long pid) {
        try {
            return cpuMicros(Files.readString(Path.of("/proc/" + pid + "/stat")));
        } catch (IOException gone) {
            return 0;
        }
    }

    /**
     * The same from a /proc/PID/stat line, read past the name's ")": Java's thread and process names may hold spaces,
     * which would shift the fields.
     */
    static long cpuMicros(String stat) {
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).strip().split(" ");
        // utime and stime, fields 14 and 15 of the line, 12 and 13 after the name
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 1_000_000 / TICKS_PER_SECOND;
    }

    /**
     * The CPU of every PostgreSQL server process, the postmaster and its backends, in µs. By /proc/PID/comm, as
     * pgrep -x: the server runs as another user, whose executables' paths this one may not read.
     */
    static long postgresCpuMicros() {
        return ProcessHandle.allProcesses().filter(p -> "postgres".equals(name(p.pid())))
                .mapToLong(p -> cpuMicros(p.pid())).sum();
    }

    private static String name(long pid) {
        try {
            return Files.readString(Path.of("/proc/" + pid + "/comm")).strip();
        } catch (IOException gone) {
            return "";
        }
    }

    /** The peak resident set (VmHWM) in MB, whole. */
    static long peakRssMb(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/status"))) {
            if (line.startsWith("VmHWM:")) {
                return Long.parseLong(line.replaceAll("\\D", "")) / 1024;
            }
        }
        throw new IOException("no VmHWM for process " + pid);
    }

    /** Resets the peak resident set (writing 5 to clear_refs); false when the kernel does not let this user. */
    static boolean resetPeakRss(long pid) {
        try {
            Files.writeString(Path.of("/proc/" + pid + "/clear_refs"), "5");
            return true;
        } catch (IOException notAllowed) {
            return false;
        }
    }

    /** How long the process's main thread has run and waited runnable for a CPU, ns (/proc/PID/schedstat). */
    static long[] schedule(long pid) throws IOException {
        String[] fields = Files.readString(Path.of("/proc/" + pid + "/schedstat")).strip().split(" ");
        return new long[] {Long.parseLong(fields[0]), Long.parseLong(fields[1])};
    }
}
