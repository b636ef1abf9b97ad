package io.seckill.order;

import io.micrometer.core.instrument.Clock;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * How orders land in the database, recorded by the order-writing routes right after each write:
 * <ul>
 *   <li>{@code seckill.orders.written}: orders inserted (an order found written already is not counted);
 *   <li>{@code seckill.orders.write} (tag {@code mode}: batch or single): time of one write statement;
 *   <li>{@code seckill.orders.batch.size}: entries per batch write;
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

    /** A batch of {@code entries} committed, of which {@code inserted} were new. */
    public void batchWritten(int entries, List<OrderRow> inserted, long startedAt) {
        batchWrites.record(clock.monotonicTime() - startedAt, TimeUnit.NANOSECONDS);
        batchSizes.record(entries);
        landed(inserted);
    }

    /** One entry committed alone: {@code inserted} holds its order, or nothing when it was written before. */
    public void entryWritten(List<OrderRow> inserted, long startedAt) {
        singleWrites.record(clock.monotonicTime() - startedAt, TimeUnit.NANOSECONDS);
        landed(inserted);
    }

    private void landed(List<OrderRow> inserted) {
        written.increment(inserted.size());
        long now = clock.wallTime();
        for (OrderRow row : inserted) {
            // Two clocks: a Redis clock ahead of this one must not make a negative latency.
            endToEnd.record(Math.max(0, now - row.acceptedAt()), TimeUnit.MILLISECONDS);
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
