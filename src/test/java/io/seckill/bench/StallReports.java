package io.seckill.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What stalled a steady load's measured part, one line each for its results: Redis's latency monitor (an fsync of the
 * append-only file, a slow command) and the service JVM's stop-the-world pauses from its safepoint log.
 */
final class StallReports {

    private static final Pattern SAFEPOINT = Pattern.compile(
            "^\\[([0-9.]+)s\\].*Safepoint \"([^\"]+)\".*Total: ([0-9]+) ns");
    private static final long STALL_NANOS = 10_000_000;

    private StallReports() {
    }

    /** Turns on Redis's latency monitor at 10 ms and forgets what it saw: the next load's stalls are its own. */
    static void resetRedisMonitor(RespConnection redis) throws IOException {
        redis.call("CONFIG", "SET", "latency-monitor-threshold", "10");
        redis.call("LATENCY", "RESET");
    }

    /**
     * Redis's latency monitor as one line: "event max ms (in n s, total ms), ..." for each event from FROM_MILLIS on.
     * LATENCY HISTORY keeps one sample per second, the second's longest, so n is how many seconds had such a stall and
     * the total a lower bound of the time lost to it.
     */
    static String redisStalls(RespConnection redis, long fromMillis) throws IOException {
        List<String> stalls = new ArrayList<>();
        for (Object event : (List<?>) redis.call("LATENCY", "LATEST")) {
            String name = (String) ((List<?>) event).get(0);
            List<long[]> samples = new ArrayList<>();
            for (Object sample : (List<?>) redis.call("LATENCY", "HISTORY", name)) {
                List<?> pair = (List<?>) sample;
                samples.add(new long[] {(Long) pair.get(0), (Long) pair.get(1)});
            }
            String stall = redisStall(name, samples, fromMillis / 1000);
            if (!stall.isEmpty()) {
                stalls.add(stall);
            }
        }
        return String.join(", ", stalls);
    }

    /** One event's samples ({seconds, ms}) from FROM_SECONDS on, "" when none. */
    static String redisStall(String event, List<long[]> samples, long fromSeconds) {
        long count = 0;
        long total = 0;
        long max = 0;
        for (long[] sample : samples) {
            if (sample[0] >= fromSeconds) {
                count++;
                total += sample[1];
                max = Math.max(max, sample[1]);
            }
        }
        return count == 0 ? "" : event + " " + max + " ms (in " + count + " s, " + total + " ms)";
    }

    /**
     * The JVM's longest pauses from FROM_UPTIME_MILLIS of its uptime on, from its safepoint log: "operation ms, ..."
     * for the three longest, and how many lasted 10 ms or more.
     */
    static String jvmStalls(List<String> safepointLog, long fromUptimeMillis) {
        record Pause(String operation, long nanos) {
        }
        List<Pause> pauses = new ArrayList<>();
        for (String line : safepointLog) {
            Matcher m = SAFEPOINT.matcher(line);
            if (m.find() && Double.parseDouble(m.group(1)) * 1000 >= fromUptimeMillis) {
                pauses.add(new Pause(m.group(2), Long.parseLong(m.group(3))));
            }
        }
        pauses.sort(Comparator.comparingLong(Pause::nanos).reversed());
        List<String> longest = new ArrayList<>();
        for (Pause pause : pauses.subList(0, Math.min(3, pauses.size()))) {
            longest.add(pause.operation() + " " + Figures.decimals(pause.nanos() / 1e6, 0) + " ms");
        }
        long stalls = pauses.stream().filter(p -> p.nanos() >= STALL_NANOS).count();
        return String.join(", ", longest) + " (" + stalls + " of 10 ms or more)";
    }
}
