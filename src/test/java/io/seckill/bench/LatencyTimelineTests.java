package io.seckill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The latency figures a load prints: percentiles of its measured seconds, each second's count, p99 and worst. */
class LatencyTimelineTests {

    @Test
    void percentilesAreThoseOfTheMeasuredSecondsOnly() {
        LatencyTimeline timeline = new LatencyTimeline(3);
        // Second 0 is the warm-up: slow, and left out of the percentiles.
        timeline.record(0, TimeUnit.SECONDS.toNanos(2));
        // Seconds 1 and 2: 1 to 1,000 µs, so p50 is 0.50 ms, p99 0.99 ms and p99.9 1.00 ms (exact below 2,048 µs).
        for (int micros = 1; micros <= 1_000; micros++) {
            timeline.record(micros % 2 + 1, TimeUnit.MICROSECONDS.toNanos(micros));
        }

        assertThat(printed(() -> timeline.printPercentiles("post", 1, 3)))
                .isEqualTo("post_count=1000\npost_p50=0.50\npost_p99=0.99\npost_p999=1.00\n");
    }

    @Test
    void aLoadWithoutAnyLatencyHasNoPercentiles() {
        assertThat(printed(() -> new LatencyTimeline(1).printPercentiles("e2e", 0, 1)))
                .isEqualTo("e2e_count=0\ne2e_p50=n/a\ne2e_p99=n/a\ne2e_p999=n/a\n");
    }

    @Test
    void longLatenciesKeepThreeSignificantDigits() {
        LatencyTimeline timeline = new LatencyTimeline(1);
        timeline.record(0, TimeUnit.MICROSECONDS.toNanos(14_137));

        // Within 0.1 %: 14.137 ms reads 14.14 ms.
        assertThat(printed(() -> timeline.printPercentiles("post", 0, 1))).contains("post_p99=14.14\n");
    }

    @Test
    void eachSecondHasItsCountP99AndWorstAFailureMarkedMinusOne() {
        LatencyTimeline timeline = new LatencyTimeline(3);
        for (int i = 1; i <= 100; i++) {
            timeline.record(0, TimeUnit.MILLISECONDS.toNanos(i));
        }
        timeline.record(1, TimeUnit.MILLISECONDS.toNanos(7));
        timeline.fail(1);

        assertThat(timeline.countsBySecond(0, 3)).isEqualTo("100 1 0");
        // 99 ms within 0.1 %: HdrHistogram's bucket of 64 µs there, read at its top (99.007 ms).
        assertThat(timeline.p99MillisBySecond(0, 3)).isEqualTo("99.01 7.00 -1");
        assertThat(timeline.worstMillisBySecond(0, 3)).isEqualTo("100 -1 0");
    }

    private static String printed(Runnable print) {
        PrintStream standardOut = System.out;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        try {
            print.run();
        } finally {
            System.setOut(standardOut);
        }
        return out.toString(StandardCharsets.UTF_8).replace(System.lineSeparator(), "\n");
    }
}
