package io.seckill.expiry;

import io.seckill.order.OrderLookup;
import io.seckill.order.OrderProperties;
import io.seckill.order.OrderView;
import io.seckill.stream.RedisKeys;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Cancels unpaid orders whose payment window ran out, for {@code routes/order-expiry.camel.yaml}. Per shard it
 * takes due orders under a lease (popDueOrders-2.lua), then settles each by what its row says:
 * <ul>
 *   <li>no row yet, or a row of another buyer or voucher: put back for later (deferDueOrder-2.lua), never
 *       cancelled blindly;
 *   <li>{@code CREATED}: cancelled in the database, then as below (a payment committed first wins);
 *   <li>{@code CANCELLED}: the unit goes back on sale (returnUnit-3.lua), once: this is also how an order whose
 *       canceller died between the database and Redis is finished, by whoever takes it after the lease; while
 *       the voucher is being rebuilt, put back for later;
 *   <li>{@code PAID}: dropped.
 * </ul>
 */
@Component("orderExpiry")
public class OrderExpiry {

    private static final Logger log = LoggerFactory.getLogger(OrderExpiry.class);

    private final RedisKeys keys;
    private final StringRedisTemplate redis;
    private final PopDueOrdersScript popDue;
    private final DeferDueOrderScript defer;
    private final ReturnUnitScript returnUnit;
    private final OrderLookup orders;
    private final OrderCancellation cancellation;
    private final OrderLifecycleMetrics metrics;
    private final OrderProperties.Expiry settings;

    public OrderExpiry(RedisKeys keys, StringRedisTemplate redis, PopDueOrdersScript popDue,
            DeferDueOrderScript defer, ReturnUnitScript returnUnit, OrderLookup orders,
            OrderCancellation cancellation, OrderLifecycleMetrics metrics, OrderProperties properties) {
        this.keys = keys;
        this.redis = redis;
        this.popDue = popDue;
        this.defer = defer;
        this.returnUnit = returnUnit;
        this.orders = orders;
        this.cancellation = cancellation;
        this.metrics = metrics;
        this.settings = properties.expiry();
    }

    /** @return the orders whose unit this call put back on sale, as the events announce them */
    public List<OrderView> cancelDue() {
        List<OrderView> cancelled = new ArrayList<>();
        for (String stream : keys.orderStreams()) {
            String due = keys.dueOrdersOf(stream);
            String cancelling = keys.cancellingOrdersOf(stream);
            for (String member : popDue.pop(due, cancelling, settings.lease(), settings.batchSize())) {
                settle(member, stream, due, cancelling).ifPresent(cancelled::add);
            }
        }
        return cancelled;
    }

    private Optional<OrderView> settle(String member, String stream, String due, String cancelling) {
        long orderId = Long.parseLong(member.substring(0, member.indexOf(':')));
        long userId = Long.parseLong(member.substring(member.indexOf(':') + 1));
        Optional<OrderView> row = orders.byId(orderId)
                .filter(order -> isTheScheduledOrder(order, member, userId, stream));
        if (row.isEmpty()) {
            defer.defer(cancelling, due, member, settings.notWrittenDelay());
            log.debug("Order {} is due but not written yet; tried again in {}", orderId, settings.notWrittenDelay());
            return Optional.empty();
        }
        OrderView order = row.get();
        if (OrderView.CREATED.equals(order.status())) {
            if (cancellation.cancel(orderId, order.voucherId())) {
                metrics.cancelled();
                order = order.withStatus(OrderView.CANCELLED);
            } else {
                order = orders.byId(orderId).orElseThrow();
            }
        }
        if (OrderView.CANCELLED.equals(order.status())) {
            ReturnUnitScript.Outcome returned = returnUnit.returnUnit(order.voucherId(), member, order.userId());
            if (returned == ReturnUnitScript.Outcome.VOUCHER_REBUILDING) {
                defer.defer(cancelling, due, member, settings.notWrittenDelay());
                log.debug("Order {} is cancelled; its unit goes back once voucher {} is rebuilt", orderId,
                        order.voucherId());
            } else if (returned == ReturnUnitScript.Outcome.RETURNED) {
                metrics.unitReturned();
                return Optional.of(order);
            }
            return Optional.empty();
        }
        // PAID: nothing to give back. ZREM
        redis.opsForZSet().remove(cancelling, member);
        return Optional.empty();
    }

    /**
     * Whether the row is the order this member was scheduled for: its buyer, and a voucher of this shard. A row of
     * another buyer or voucher under the same orderId is another order (the writer refuses such an entry as an
     * ORDER_ID_CONFLICT dead letter): it is not cancelled for this one.
     */
    private boolean isTheScheduledOrder(OrderView order, String member, long userId, String stream) {
        if (order.userId() == userId && keys.ordersOf(order.voucherId()).equals(stream)) {
            return true;
        }
        log.warn("Order {} is scheduled for buyer {} on {}, but its row is voucher {}, buyer {}: left as not written",
                member, userId, stream, order.voucherId(), order.userId());
        return false;
    }
}
