package io.seckill.expiry;

import io.seckill.config.SqlStatements;
import io.seckill.order.OrderLookup;
import io.seckill.order.OrderView;
import io.seckill.refusal.Reason;
import io.seckill.refusal.Refusal;
import io.seckill.refusal.RequestIds;
import java.time.Clock;
import java.time.OffsetDateTime;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * {@code POST /api/orders/{orderId}/payment}: records that the gateway in front says the buyer paid. No payment
 * provider is called. The database decides between a payment and a cancellation racing on one order: both change
 * the row only while it is {@code CREATED}, so exactly one of them does.
 */
@Component("orderPayment")
public class OrderPayment {

    /** Seconds after which a payment of an order still in the stream is worth trying again. */
    private static final long NOT_CREATED_RETRY_SECONDS = 1;
    /** Seconds after which a payment refused during a database outage is worth trying again. */
    private static final long DATABASE_RETRY_SECONDS = 5;

    private static final Logger log = LoggerFactory.getLogger(OrderPayment.class);

    private final JdbcClient jdbc;
    private final RequestIds requestIds;
    private final OrderLookup orders;
    private final UnpaidOrders unpaid;
    private final OrderLifecycleMetrics metrics;
    private final Clock clock;
    private final String payOrder;

    public OrderPayment(JdbcClient jdbc, RequestIds requestIds, OrderLookup orders, UnpaidOrders unpaid,
            OrderLifecycleMetrics metrics, SqlStatements sql) {
        this.jdbc = jdbc;
        this.requestIds = requestIds;
        this.orders = orders;
        this.unpaid = unpaid;
        this.metrics = metrics;
        this.clock = Clock.systemUTC();
        this.payOrder = sql.get("pay-order");
    }

    /** @param recorded whether this request paid the order (false: it was paid already) */
    public record Outcome(OrderView order, boolean recorded) {}

    /** @param userId the buyer paying ({@link io.seckill.api.BuyerIdentity}) */
    public Outcome pay(String orderIdText, long userId) {
        long orderId = requestIds.positive(orderIdText, "orderId");
        try {
            return pay(orderId, userId);
        } catch (TransientDataAccessException | DataAccessResourceFailureException outage) {
            // Not our bug and not the buyer's: the gateway retries the payment; nothing was recorded.
            throw new Refusal(Reason.UNAVAILABLE, "The payment of order " + orderId
                    + " could not be recorded now; try again", DATABASE_RETRY_SECONDS);
        }
    }

    private Outcome pay(long orderId, long userId) {
        int updated = jdbc.sql(payOrder)
                .param("orderId", orderId)
                .param("userId", userId)
                .param("now", OffsetDateTime.now(clock))
                .update();
        // Another buyer's order is answered as if it did not exist.
        Optional<OrderView> row = orders.byId(orderId).filter(order -> order.userId() == userId);
        if (updated == 1) {
            OrderView paid = row.orElseThrow();
            metrics.paid();
            unschedule(paid);
            return new Outcome(paid, true);
        }
        if (row.isEmpty()) {
            if (unpaid.scheduled(orderId, userId)) {
                throw new Refusal(Reason.NOT_CREATED_YET, "Order " + orderId
                        + " is accepted but not written to the database yet; pay again in a moment",
                        NOT_CREATED_RETRY_SECONDS);
            }
            throw new Refusal(Reason.ORDER_NOT_FOUND, "Order " + orderId + " is not in the database");
        }
        OrderView order = row.get();
        if (OrderView.PAID.equals(order.status())) {
            return new Outcome(order, false);
        }
        throw new Refusal(Reason.PAYMENT_EXPIRED, "Order " + orderId + " was not paid within its window"
                + (OrderView.CANCELLED.equals(order.status()) ? " and is cancelled" : " and is being cancelled"));
    }

    /** Spares the expiry a look at a paid order; should this fail, the expiry finds the row PAID and drops it. */
    private void unschedule(OrderView paid) {
        try {
            unpaid.unschedule(orders.homeShard(paid), Long.parseLong(paid.orderId()), paid.userId());
        } catch (DataAccessException e) {
            log.warn("Paid order {} stays scheduled for expiry, which will drop it: {}", paid.orderId(),
                    e.getMessage());
        }
    }
}
