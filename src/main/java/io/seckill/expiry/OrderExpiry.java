package io.seckill.expiry;

import io.seckill.order.OrderLookup;
import io.seckill.order.OrderProperties;
import io.seckill.order.OrderView;
import io.seckill.redis.RedisKeys;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The steps of {@code routes/order-expiry.camel.yaml}, which cancels unpaid orders whose payment window ran out.
 * Per shard the route takes due orders under a lease (popDueOrders-2.lua), then settles each by what its row says:
 * <ul>
 *   <li>no row yet, or a row of another buyer or voucher: put back for later (deferDueOrder-2.lua), never
 *       cancelled blindly;
 *   <li>{@code CREATED}: cancelled in the database (the route's {@code cancel-unpaid-order}: a payment committed
 *       first wins), then as below;
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
    private final OrderLifecycleMetrics metrics;
    private final OrderProperties.Expiry settings;

    public OrderExpiry(RedisKeys keys, StringRedisTemplate redis, PopDueOrdersScript popDue,
            DeferDueOrderScript defer, ReturnUnitScript returnUnit, OrderLookup orders,
            OrderLifecycleMetrics metrics, OrderProperties properties) {
        this.keys = keys;
        this.redis = redis;
        this.popDue = popDue;
        this.defer = defer;
        this.returnUnit = returnUnit;
        this.orders = orders;
        this.metrics = metrics;
        this.settings = properties.expiry();
    }

    /** popDueOrders-2.lua on every shard: the due orders, each now leased to this instance. */
    public List<DueOrder> takeDue() {
        List<DueOrder> taken = new ArrayList<>();
        for (String stream : keys.orderStreams()) {
            for (String member : popDue.pop(keys.dueOrdersOf(stream), keys.cancellingOrdersOf(stream),
                    settings.lease(), settings.batchSize())) {
                taken.add(DueOrder.taken(member, stream));
            }
        }
        return taken;
    }

    /**
     * The order's row, if it is the order this member was scheduled for: its buyer, and a voucher of this shard. A
     * row of another buyer or voucher under the same orderId is another order (the writer refuses such an entry as
     * an ORDER_ID_CONFLICT dead letter): it is not cancelled for this one.
     */
    public DueOrder findRow(DueOrder due) {
        OrderView row = orders.byId(due.orderId()).orElse(null);
        if (row != null && (row.userId() != due.userId()
                || orders.homeShard(row) != keys.shardOfStream(due.stream()))) {
            log.warn("Order {} is scheduled for buyer {} on {}, but its row is voucher {}, buyer {}: left as not "
                    + "written", due.member(), due.userId(), due.stream(), row.voucherId(), row.userId());
            row = null;
        }
        return due.withRow(row);
    }

    /** deferDueOrder-2.lua: back among the due orders, taken again after {@code not-written-delay}. */
    public DueOrder defer(DueOrder due) {
        defer.defer(keys.cancellingOrdersOf(due.stream()), keys.dueOrdersOf(due.stream()), due.member(),
                settings.notWrittenDelay());
        log.debug("Order {} is not written yet, or its voucher is being rebuilt; tried again in {}", due.orderId(),
                settings.notWrittenDelay());
        return due;
    }

    /**
     * After the database's cancellation: CANCELLED when it cancelled the row, or the row as it is now (a payment
     * committed first).
     *
     * @param cancelledRows the rows {@code sql/cancel-order.sql} changed: 1 or 0
     */
    public DueOrder cancelled(DueOrder due, int cancelledRows) {
        if (cancelledRows == 1) {
            metrics.cancelled();
            return due.withRow(due.row().withStatus(OrderView.CANCELLED));
        }
        return due.withRow(orders.byId(due.orderId()).orElseThrow());
    }

    /** returnUnit-3.lua: the unit back on sale, once; while the voucher is being rebuilt, deferred. */
    public DueOrder returnUnit(DueOrder due) {
        ReturnUnitScript.Outcome returned = returnUnit.returnUnit(due.row().voucherId(), due.member(),
                due.row().userId(), due.stream());
        if (returned == ReturnUnitScript.Outcome.VOUCHER_REBUILDING) {
            return defer(due);
        }
        if (returned == ReturnUnitScript.Outcome.RETURNED) {
            metrics.unitReturned();
            return due.withUnitReturned();
        }
        return due;
    }

    /** A paid order: nothing to give back, no longer being cancelled (ZREM …:orders:cancelling). */
    public DueOrder forget(DueOrder due) {
        redis.opsForZSet().remove(keys.cancellingOrdersOf(due.stream()), due.member());
        return due;
    }

    /** The orders whose unit this round put back on sale, as the order events announce them. */
    public List<OrderView> unitsReturned(List<DueOrder> settled) {
        return settled.stream().filter(DueOrder::unitReturned).map(DueOrder::row).toList();
    }
}
