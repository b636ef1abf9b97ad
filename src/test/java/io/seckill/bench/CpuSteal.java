package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The machine's CPU time so far, and how much of it the hypervisor gave to other guests while this machine's CPUs
 * wanted it ({@code steal} in /proc/stat). On a shared VM a measurement can lose a fifth of its CPU to a neighbour,
 * and unevenly from one to the next (2026-11-28: 17 % of the CPUs' time while loaded, none while idle), so a ratio
 * between two figures measured minutes apart says little without it. Each wrk run notes its share ({@link Wrk}).
 *
 * @param total  jiffies of all kinds, the CPUs together (user to steal)
 * @param stolen jiffies stolen
 */
record CpuSteal(long total, long stolen) {

    private static final Path STAT = Path.of("/proc/stat");
    /** The {@code cpu} line's fields, from user to steal: nice, system, idle, iowait, irq and softirq between. */
    private static final int FIELDS = 8;

    /** Now; zero when /proc/stat cannot be read (no share is given then). */
    static CpuSteal now() {
        try {
            return Files.readAllLines(STAT).stream().filter(line -> line.startsWith("cpu ")).findFirst()
                    .map(CpuSteal::parse).orElse(new CpuSteal(0, 0));
        } catch (IOException | RuntimeException e) {
            return new CpuSteal(0, 0);
        }
    }

    /** The aggregate line of /proc/stat: {@code cpu  user nice system idle iowait irq softirq steal ...}. */
    static CpuSteal parse(String cpuLine) {
        String[] fields = cpuLine.trim().split("\\s+");
        long total = 0;
        for (int i = 1; i <= FIELDS; i++) {
            total += Long.parseLong(fields[i]);
        }
        return new CpuSteal(total, Long.parseLong(fields[FIELDS]));
    }

    /** The percentage of the CPUs' time stolen since BEFORE, one decimal; "n/a" when there is nothing to divide. */
    String percentSince(CpuSteal before) {
        long elapsed = total - before.total;
        return before.total <= 0 || elapsed <= 0 ? Figures.NONE
                : Figures.decimals(100.0 * (stolen - before.stolen) / elapsed, 1);
    }
}
