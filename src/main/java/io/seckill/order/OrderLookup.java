package io.seckill.order;

import io.seckill.config.SqlStatements;
import io.seckill.redis.BucketCounts;
import io.seckill.redis.RedisKeys;
import io.seckill.refusal.Reason;
import io.seckill.refusal.Refusal;
import io.seckill.refusal.RequestIds;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Finds a written order for its own buyer; one still in the stream is not found yet, and neither is another buyer's
 * (order ids are roughly sequential: a stranger must not learn from the answer that an id exists, nor whose it is
 * and for which voucher). During a database outage it answers 503
 * DATABASE_UNAVAILABLE: at once while connections are being refused, so request threads, shared with the intake,
 * do not each wait for the pool's connection timeout.
 */
@Component("orderLookup")
public class OrderLookup {

    /** How long after a refused connection lookups answer 503 without asking the pool; also their Retry-After. */
    static final Duration FAIL_FAST = Duration.ofSeconds(5);

    private final JdbcClient jdbc;
    private final RequestIds requestIds;
    private final DatabaseOutages outages;
    private final String findOrder;
    private final String findVoucherBuckets;
    private final BucketCounts bucketCounts;
    private final RedisKeys keys;

    public OrderLookup(JdbcClient jdbc, RequestIds requestIds, DatabaseOutages outages, SqlStatements sql,
            BucketCounts bucketCounts, RedisKeys keys) {
        this.jdbc = jdbc;
        this.requestIds = requestIds;
        this.outages = outages;
        this.findOrder = sql.get("find-order");
        this.findVoucherBuckets = sql.get("find-voucher-buckets");
        this.bucketCounts = bucketCounts;
        this.keys = keys;
    }

    /**
     * The shard of the order's stock bucket (docs/buckets.md), where it was admitted: its stream, its due and
     * cancelling orders, its buyer. The voucher's number of buckets is read from the database once.
     */
    public int homeShard(OrderView order) {
        long voucherId = order.voucherId();
        Integer buckets = bucketCounts.known(voucherId);
        if (buckets == null) {
            buckets = jdbc.sql(findVoucherBuckets).param("voucherId", voucherId).query(Integer.class).optional()
                    .orElse(1);
            bucketCounts.learn(voucherId, buckets);
        }
        return keys.homeShard(voucherId, order.userId(), buckets);
    }

    /** @param userId the buyer asking ({@link io.seckill.api.BuyerIdentity}) */
    public OrderView find(String orderIdText, long userId) {
        long orderId = requestIds.positive(orderIdText, "orderId");
        if (outages.connectionsFailing(FAIL_FAST)) {
            throw unavailable(orderId);
        }
        try {
            // Another buyer's order is answered word for word as a missing one.
            return byId(orderId).filter(order -> order.userId() == userId).orElseThrow(() -> new Refusal(
                    Reason.ORDER_NOT_FOUND, "Order " + orderId + " is not in the database (yet)"));
        } catch (RuntimeException e) {
            if (outages.recognise(e)) {
                throw unavailable(orderId);
            }
            throw e;
        }
    }

    public Optional<OrderView> byId(long orderId) {
        return jdbc.sql(findOrder).param("orderId", orderId)
                .query((rs, row) -> {
                    OffsetDateTime payBefore = rs.getObject("pay_before", OffsetDateTime.class);
                    return new OrderView(
                            Long.toString(rs.getLong("order_id")),
                            rs.getLong("voucher_id"),
                            rs.getLong("user_id"),
                            rs.getString("status"),
                            rs.getObject("created_at", OffsetDateTime.class).toInstant(),
                            payBefore == null ? null : payBefore.toInstant());
                })
                .optional();
    }

    private static Refusal unavailable(long orderId) {
        return new Refusal(Reason.DATABASE_UNAVAILABLE, "The database cannot be read now, so order "
                + orderId + " cannot be looked up; orders are still taken. Retry in " + FAIL_FAST.toSeconds() + " s",
                FAIL_FAST.toSeconds());
    }
}
