package io.seckill.expiry;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.stereotype.Component;

/**
 * What happens to written orders, counted by this instance:
 * <ul>
 *   <li>{@code seckill.orders.paid}: payments recorded;
 *   <li>{@code seckill.orders.cancelled}: unpaid orders cancelled in the database;
 *   <li>{@code seckill.orders.units.returned}: units put back on sale in Redis (one per cancelled order, whichever
 *       instance finished it);
 *   <li>{@code seckill.orders.overdue.oldest.age} (seconds): how long the most overdue unpaid order has waited past
 *       its window, read from Redis, so every instance shows the same.
 * </ul>
 */
@Component
public class OrderLifecycleMetrics {

    private final Counter paid;
    private final Counter cancelled;
    private final Counter unitsReturned;

    public OrderLifecycleMetrics(MeterRegistry registry, UnpaidOrders unpaid) {
        this.paid = Counter.builder("seckill.orders.paid").description("Payments recorded").register(registry);
        this.cancelled = Counter.builder("seckill.orders.cancelled")
                .description("Unpaid orders cancelled when their payment window ran out").register(registry);
        this.unitsReturned = Counter.builder("seckill.orders.units.returned")
                .description("Units of cancelled orders put back on sale").register(registry);
        Gauge.builder("seckill.orders.overdue.oldest.age", unpaid, u -> u.oldestOverdueAge().toMillis() / 1000.0)
                .description("How long the most overdue unpaid order has waited past its payment window")
                .baseUnit("seconds")
                .register(registry);
    }

    public void paid() {
        paid.increment();
    }

    public void cancelled() {
        cancelled.increment();
    }

    public void unitReturned() {
        unitsReturned.increment();
    }
}
