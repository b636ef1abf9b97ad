package io.seckill.order;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.seckill.stream.StreamEntry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * How orders land in the database, recorded by the order-writing routes right after each write:
 * <ul>
 *   <li>{@code seckill.orders.written}: orders written (a rewrite after a crash counts again);
 *   <li>{@code seckill.orders.write} (tag {@code mode}: batch or single): time of one write statement;
 *   <li>{@code seckill.orders.batch.size}: orders per batch write;
 *   <li>{@code seckill.orders.end.to.end}: from the order's acceptance ({@code acceptedAt}, the Redis clock) to
 *       its write (this JVM's clock).
 * </ul>
 * The timers publish histogram buckets, so a percentile can be computed across instances.
 */
@Component("orderWriteMetrics")
public class OrderWriteMetrics {

    private final Clock clock;
    private final Counter written;
    private final DistributionSummary batchSizes;
    private final Timer batchWrites;
    private final Timer singleWrites;
    private final Timer endToEnd;

    public OrderWriteMetrics(MeterRegistry registry) {
        this.clock = registry.config().clock();
        this.written = Counter.builder("seckill.orders.written").description("Orders written to the database")
                .register(registry);
        this.batchSizes = DistributionSummary.builder("seckill.orders.batch.size")
                .description("Orders per batch write").register(registry);
        this.batchWrites = writeTimer(registry, "batch");
        this.singleWrites = writeTimer(registry, "single");
        this.endToEnd = Timer.builder("seckill.orders.end.to.end")
                .description("From an order's acceptance to its write to the database")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofMinutes(5))
                .register(registry);
    }

    /** @return the moment a write starts, for {@link #batchWritten} or {@link #entryWritten} */
    public long start() {
        return clock.monotonicTime();
    }

    public void batchWritten(List<StreamEntry> entries, long startedAt) {
        batchWrites.record(clock.monotonicTime() - startedAt, TimeUnit.NANOSECONDS);
        batchSizes.record(entries.size());
        landed(entries);
    }

    public void entryWritten(StreamEntry entry, long startedAt) {
        singleWrites.record(clock.monotonicTime() - startedAt, TimeUnit.NANOSECONDS);
        landed(List.of(entry));
    }

    private void landed(List<StreamEntry> entries) {
        written.increment(entries.size());
        long now = clock.wallTime();
        for (StreamEntry entry : entries) {
            try {
                long acceptedAt = Long.parseLong(entry.fields().getOrDefault("acceptedAt", ""));
                // Two clocks: a Redis clock ahead of this one must not make a negative latency.
                endToEnd.record(Math.max(0, now - acceptedAt), TimeUnit.MILLISECONDS);
            } catch (NumberFormatException malformed) {
                // A written entry had a valid acceptedAt (OrderRows checks it); nothing to measure otherwise.
            }
        }
    }

    private static Timer writeTimer(MeterRegistry registry, String mode) {
        return Timer.builder("seckill.orders.write")
                .description("One write of orders to the database")
                .tag("mode", mode)
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
    }
}
