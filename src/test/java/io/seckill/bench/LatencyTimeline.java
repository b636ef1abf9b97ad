package io.seckill.bench;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SynchronizedHistogram;

/**
 * Latencies by second of a load's schedule, one HdrHistogram per second: a load's percentiles are those of its
 * measured seconds merged, and each second's own count, p99 and worst are there for the log and the picture.
 *
 * <p>No coordinated-omission correction is applied here ({@code recordValueWithExpectedInterval}): the open-loop
 * loads already time each request from when it was due, not from when it was sent (wrk2's method), so a stall's
 * queued requests are counted at their full wait; correcting again would count them twice.
 */
final class LatencyTimeline {

    /** An open-loop request waits at most this long; a longer latency is recorded as this. */
    static final long HIGHEST_MICROS = TimeUnit.MINUTES.toMicros(10);
    /** Three significant digits: every percentile within 0.1 % of the exact value, finer than the summary prints. */
    private static final int DIGITS = 3;
    private static final double[] PERCENTILES = {50, 99, 99.9};

    private final Histogram[] bySecond;
    /** 1 for a second in which a request failed: its worst is then "never answered". */
    private final AtomicIntegerArray failed;

    LatencyTimeline(int seconds) {
        bySecond = new Histogram[seconds];
        for (int second = 0; second < seconds; second++) {
            bySecond[second] = new SynchronizedHistogram(HIGHEST_MICROS, DIGITS);
        }
        failed = new AtomicIntegerArray(seconds);
    }

    void record(int second, long nanos) {
        bySecond[second].recordValue(Math.min(TimeUnit.NANOSECONDS.toMicros(nanos), HIGHEST_MICROS));
    }

    void fail(int second) {
        failed.set(second, 1);
    }

    long count(int second) {
        return bySecond[second].getTotalCount();
    }

    /** The second's longest latency in nanoseconds, Long.MAX_VALUE when a request of it failed, 0 when it had none. */
    long worstNanos(int second) {
        return failed.get(second) == 1 ? Long.MAX_VALUE : TimeUnit.MICROSECONDS.toNanos(bySecond[second].getMaxValue());
    }

    /** The seconds [from, to) merged. */
    Histogram merged(int from, int to) {
        Histogram merged = new Histogram(HIGHEST_MICROS, DIGITS);
        for (int second = from; second < to; second++) {
            merged.add(bySecond[second]);
        }
        return merged;
    }

    /** PREFIX_count and PREFIX_p50, _p99, _p999 in milliseconds (n/a with no latency) over the seconds [from, to). */
    void printPercentiles(String prefix, int from, int to) {
        Histogram merged = merged(from, to);
        ResultLines.print(prefix + "_count", merged.getTotalCount());
        for (double p : PERCENTILES) {
            ResultLines.print(prefix + "_p" + String.valueOf(p).replace(".0", "").replace(".", ""),
                    merged.getTotalCount() == 0 ? "n/a" : millis(merged.getValueAtPercentile(p)));
        }
    }

    /** Each second's longest latency in whole milliseconds, -1 for a second with a failure. */
    String worstMillisBySecond(int from, int to) {
        return line(from, to, second -> {
            long worst = worstNanos(second);
            return Long.toString(worst == Long.MAX_VALUE ? -1 : TimeUnit.NANOSECONDS.toMillis(worst));
        });
    }

    /** Each second's count of latencies recorded. */
    String countsBySecond(int from, int to) {
        return line(from, to, second -> Long.toString(count(second)));
    }

    /** Each second's p99 in milliseconds, -1 for a second without any latency. */
    String p99MillisBySecond(int from, int to) {
        return line(from, to, second -> count(second) == 0 ? "-1"
                : millis(bySecond[second].getValueAtPercentile(99)));
    }

    private static String millis(long micros) {
        return ResultLines.millis(TimeUnit.MICROSECONDS.toNanos(micros));
    }

    private static String line(int from, int to, IntFunction<String> value) {
        return IntStream.range(from, to).mapToObj(value).collect(Collectors.joining(" "));
    }
}
