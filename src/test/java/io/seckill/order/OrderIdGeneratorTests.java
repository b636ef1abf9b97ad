package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** Order ids: positive, unique, increasing with time, whatever the clock does. */
class OrderIdGeneratorTests {

    private static final long NOW = Instant.parse("2026-11-21T10:00:00Z").toEpochMilli();
    private static final int TIME_SHIFT = 22;
    private static final int WORKER_SHIFT = 12;

    private final SettableClock clock = new SettableClock(NOW);

    @Test
    void idsArePositiveAndStrictlyIncreasingEvenBeyondTheSequenceOfOneMillisecond() {
        OrderIdGenerator ids = new OrderIdGenerator(clock, 5);

        // 20,000 ids while the clock stands still: five times the 4,096 a millisecond holds.
        long previous = 0;
        for (int i = 0; i < 20_000; i++) {
            long id = ids.next();
            assertThat(id).isGreaterThan(previous);
            previous = id;
        }
    }

    @Test
    void idCarriesItsMillisecondAndItsWorker() {
        OrderIdGenerator ids = new OrderIdGenerator(clock, 1023);

        long id = ids.next();

        assertThat((id >>> TIME_SHIFT) + OrderIdGenerator.EPOCH_MILLIS).isEqualTo(NOW);
        assertThat((id >>> WORKER_SHIFT) & 1023).isEqualTo(1023);
        assertThat(id & 4095).isZero();
    }

    @Test
    void laterMillisecondGivesALargerId() {
        OrderIdGenerator ids = new OrderIdGenerator(clock, 7);
        long first = ids.next();
        ids.next();

        clock.set(NOW + 1);

        assertThat(ids.next()).isGreaterThan(first).isEqualTo(((NOW + 1 - OrderIdGenerator.EPOCH_MILLIS) << TIME_SHIFT)
                | (7L << WORKER_SHIFT));
    }

    @Test
    void clockSteppingBackNeitherRepeatsNorDecreases() {
        OrderIdGenerator ids = new OrderIdGenerator(clock, 3);
        long beforeTheStep = ids.next();

        clock.set(NOW - 5_000);
        long afterTheStep = ids.next();
        clock.set(NOW - 4_999);
        long aMillisecondLater = ids.next();

        assertThat(afterTheStep).isGreaterThan(beforeTheStep);
        assertThat(aMillisecondLater).isGreaterThan(afterTheStep);
    }

    @Test
    void twoWorkersInTheSameMillisecondNeverShareAnId() {
        OrderIdGenerator one = new OrderIdGenerator(clock, 1);
        OrderIdGenerator two = new OrderIdGenerator(clock, 2);

        assertThat(one.next()).isNotEqualTo(two.next());
    }

    @Test
    void concurrentCallersGetDistinctIds() throws Exception {
        OrderIdGenerator ids = new OrderIdGenerator(Clock.systemUTC(), 9);
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        ExecutorService callers = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int caller = 0; caller < 4; caller++) {
                done.add(callers.submit(() -> {
                    for (int i = 0; i < 10_000; i++) {
                        seen.add(ids.next());
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } finally {
            callers.shutdownNow();
        }

        assertThat(seen).hasSize(40_000);
    }

    /** A clock a test moves by hand, backwards too (NTP does). */
    private static final class SettableClock extends Clock {

        private volatile long millis;

        SettableClock(long millis) {
            this.millis = millis;
        }

        void set(long millis) {
            this.millis = millis;
        }

        @Override
        public long millis() {
            return millis;
        }

        @Override
        public Instant instant() {
            return Instant.ofEpochMilli(millis);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            throw new UnsupportedOperationException();
        }
    }
}
