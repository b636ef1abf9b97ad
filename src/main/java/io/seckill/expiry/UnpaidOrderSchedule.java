package io.seckill.expiry;

import io.seckill.config.SqlStatements;
import io.seckill.stream.RedisKeys;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.core.DefaultTypedTuple;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/**
 * Schedules a voucher's unpaid orders again when its Redis state is rebuilt (a lost or wiped Redis took the due
 * orders with it): the {@code CREATED} rows with a window, and the orders still in the stream or among the dead
 * letters (they expire once written). ZADD NX, so an order scheduled already keeps its place.
 */
@Component
public class UnpaidOrderSchedule {

    private static final int CHUNK = 1000;

    private final JdbcClient jdbc;
    private final StringRedisTemplate redis;
    private final RedisKeys keys;
    private final UnpaidOrders unpaid;
    private final String selectUnpaidOrders;

    public UnpaidOrderSchedule(JdbcClient jdbc, StringRedisTemplate redis, RedisKeys keys, UnpaidOrders unpaid,
            SqlStatements sql) {
        this.jdbc = jdbc;
        this.redis = redis;
        this.keys = keys;
        this.unpaid = unpaid;
        this.selectUnpaidOrders = sql.get("select-unpaid-orders");
    }

    public void reschedule(long voucherId) {
        Set<TypedTuple<String>> chunk = new HashSet<>();
        jdbc.sql(selectUnpaidOrders).param("voucherId", voucherId).query(rs -> {
            add(chunk, voucherId, rs.getLong("order_id"), rs.getLong("user_id"),
                    rs.getObject("pay_before", java.time.OffsetDateTime.class).toInstant().toEpochMilli());
        });
        String stream = keys.ordersOf(voucherId);
        for (String key : List.of(stream, keys.deadLettersOf(stream))) {
            Range<String> range = Range.unbounded();
            while (true) {
                // XRANGE key start + COUNT 1000
                List<MapRecord<String, Object, Object>> page = redis.opsForStream().range(key, range,
                        Limit.limit().count(CHUNK));
                if (page == null || page.isEmpty()) {
                    break;
                }
                for (MapRecord<String, Object, Object> record : page) {
                    addEntry(chunk, voucherId, record.getValue());
                }
                range = Range.rightUnbounded(Range.Bound.exclusive(page.get(page.size() - 1).getId().getValue()));
            }
        }
        unpaid.schedule(voucherId, chunk);
    }

    private void addEntry(Set<TypedTuple<String>> chunk, long voucherId, Map<Object, Object> fields) {
        try {
            if (Long.parseLong(String.valueOf(fields.get("voucherId"))) == voucherId && fields.get("payBefore") != null) {
                add(chunk, voucherId, Long.parseLong(String.valueOf(fields.get("orderId"))),
                        Long.parseLong(String.valueOf(fields.get("userId"))),
                        Long.parseLong(String.valueOf(fields.get("payBefore"))));
            }
        } catch (NumberFormatException malformed) {
            // No order of this voucher: the writer dead-letters it as malformed.
        }
    }

    private void add(Set<TypedTuple<String>> chunk, long voucherId, long orderId, long userId, long payBefore) {
        chunk.add(new DefaultTypedTuple<>(RedisKeys.unpaidOrder(orderId, userId), (double) payBefore));
        if (chunk.size() == CHUNK) {
            unpaid.schedule(voucherId, chunk);
            chunk.clear();
        }
    }
}
