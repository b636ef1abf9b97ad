package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class OrderWriteMetricsTests {

    private final MockClock clock = new MockClock();
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);
    private final OrderWriteMetrics metrics = new OrderWriteMetrics(registry);

    @Test
    void batchWriteCountsItsOrdersItsSizeItsTimeAndEachOrdersLatency() {
        long acceptedAt = clock.wallTime();
        long started = metrics.start();
        clock.add(30, TimeUnit.MILLISECONDS);

        metrics.batchWritten(2, List.of(row(1, acceptedAt), row(2, acceptedAt - 20)), started);

        assertThat(registry.get("seckill.orders.written").counter().count()).isEqualTo(2);
        assertThat(registry.get("seckill.orders.batch.size").summary().totalAmount()).isEqualTo(2);
        assertThat(registry.get("seckill.orders.write").tag("mode", "batch").timer().totalTime(TimeUnit.MILLISECONDS))
                .isEqualTo(30);
        assertThat(registry.get("seckill.orders.end.to.end").timer().count()).isEqualTo(2);
        assertThat(registry.get("seckill.orders.end.to.end").timer().totalTime(TimeUnit.MILLISECONDS))
                .isEqualTo(30 + 50);
    }

    @Test
    void singleWriteIsTimedApartFromBatches() {
        long started = metrics.start();
        clock.add(5, TimeUnit.MILLISECONDS);

        metrics.entryWritten(List.of(row(1, clock.wallTime())), started);

        assertThat(registry.get("seckill.orders.written").counter().count()).isEqualTo(1);
        assertThat(registry.get("seckill.orders.write").tag("mode", "single").timer().count()).isEqualTo(1);
        assertThat(registry.get("seckill.orders.write").tag("mode", "batch").timer().count()).isZero();
        assertThat(registry.get("seckill.orders.batch.size").summary().count()).isZero();
    }

    @Test
    void acceptanceAheadOfThisClockCountsAsNoLatencyNotANegativeOne() {
        metrics.entryWritten(List.of(row(1, clock.wallTime() + 1_000)), metrics.start());

        assertThat(registry.get("seckill.orders.end.to.end").timer().count()).isEqualTo(1);
        assertThat(registry.get("seckill.orders.end.to.end").timer().totalTime(TimeUnit.MILLISECONDS)).isZero();
    }

    @Test
    void batchOfOrdersWrittenBeforeCountsItsSizeButNoOrders() {
        metrics.batchWritten(3, List.of(), metrics.start());

        assertThat(registry.get("seckill.orders.batch.size").summary().totalAmount()).isEqualTo(3);
        assertThat(registry.get("seckill.orders.written").counter().count()).isZero();
        assertThat(registry.get("seckill.orders.end.to.end").timer().count()).isZero();
    }

    private static OrderRow row(long orderId, long acceptedAt) {
        return new OrderRow(orderId, 1, orderId, acceptedAt, null);
    }
}
