package io.seckill.expiry;

import io.seckill.order.OrderProperties;
import java.time.Duration;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.stereotype.Component;

/**
 * Health {@code orderExpiry}, part of readiness: DOWN while an unpaid order has waited longer than
 * {@code seckill.order.expiry.max-overdue-age} past its window without being cancelled (the expiry fell behind
 * or stopped: units that should be back on sale are not), or when Redis cannot be read.
 */
@Component
class OrderExpiryHealthIndicator extends AbstractHealthIndicator {

    private final UnpaidOrders unpaid;
    private final Duration maxOverdueAge;

    OrderExpiryHealthIndicator(UnpaidOrders unpaid, OrderProperties orders) {
        super("Unpaid orders could not be read");
        this.unpaid = unpaid;
        this.maxOverdueAge = orders.expiry().maxOverdueAge();
    }

    @Override
    protected void doHealthCheck(Health.Builder health) {
        Duration oldest = unpaid.oldestOverdueAge();
        (oldest.compareTo(maxOverdueAge) > 0 ? health.down() : health.up())
                .withDetail("oldestOverdueAge", oldest.toString())
                .withDetail("maxOverdueAge", maxOverdueAge.toString());
    }
}
