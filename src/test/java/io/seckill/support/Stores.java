package io.seckill.support;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.DataType;
import org.springframework.data.redis.core.Cursor;
import org.springframework.data.redis.core.ScanOptions;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/** What the service keeps, read straight from Redis and the database, for before/after comparisons. */
public class Stores {

    private final StringRedisTemplate redis;
    private final JdbcTemplate jdbc;

    public Stores(StringRedisTemplate redis, JdbcTemplate jdbc) {
        this.redis = redis;
        this.jdbc = jdbc;
    }

    public StringRedisTemplate redis() {
        return redis;
    }

    public JdbcTemplate jdbc() {
        return jdbc;
    }

    /** Every {@code seckill:*} key with its content, and every row of both tables. */
    /**
     * Orders one unit as this buyer and returns once its row is written and the writer has acknowledged and deleted
     * every entry of these order streams (XLEN 0), so that a snapshot taken next stays put.
     */
    public String written(ApiClient api, List<String> orderStreams, long voucher, long buyer) {
        String orderId = api.orderAccepted(voucher, buyer).get(0);
        await().atMost(Duration.ofSeconds(30)).until(() -> api.getOrder(orderId, buyer).status() == 200);
        await().atMost(Duration.ofSeconds(30)).until(() -> orderStreams.stream()
                .allMatch(stream -> Long.valueOf(0).equals(redis.opsForStream().size(stream))));
        return orderId;
    }

    public Snapshot snapshot() {
        Map<String, Object> keys = keys("seckill:*");
        // The order-id worker counter moves with each start, not with requests.
        keys.remove("seckill:order-id:workers");
        return new Snapshot(keys,
                jdbc.queryForList("SELECT * FROM vouchers ORDER BY id"),
                jdbc.queryForList("SELECT * FROM orders ORDER BY order_id"));
    }

    /** Every key matching the pattern (SCAN MATCH) with its content, for a test that keeps to its own prefix. */
    public Map<String, Object> keys(String pattern) {
        Map<String, Object> keys = new TreeMap<>();
        try (Cursor<String> cursor = redis.scan(ScanOptions.scanOptions().match(pattern).count(1000).build())) {
            cursor.forEachRemaining(key -> keys.put(key, content(key)));
        }
        return keys;
    }

    public long orderRows(long voucherId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE voucher_id = ?", Long.class, voucherId);
    }

    /** order_id → the number of rows carrying it, for the voucher's orders. */
    public Map<String, Long> rowsPerOrderId(long voucherId) {
        Map<String, Long> rows = new TreeMap<>();
        jdbc.query("SELECT order_id, COUNT(*) AS n FROM orders WHERE voucher_id = ? GROUP BY order_id",
                rs -> {
                    rows.put(Long.toString(rs.getLong("order_id")), rs.getLong("n"));
                }, voucherId);
        return rows;
    }

    /** What {@link #rowsPerOrderId} answers when each of these orders was written exactly once. */
    public static Map<String, Long> eachOnce(Collection<String> orderIds) {
        Map<String, Long> rows = new TreeMap<>();
        orderIds.forEach(orderId -> rows.put(orderId, 1L));
        return rows;
    }

    public long distinctBuyers(long voucherId) {
        return jdbc.queryForObject("SELECT COUNT(DISTINCT user_id) FROM orders WHERE voucher_id = ?", Long.class,
                voucherId);
    }

    public long remaining(String voucherKey) {
        Object stock = redis.opsForHash().get(voucherKey, "stock");
        return stock == null ? -1 : Long.parseLong(stock.toString());
    }

    private Object content(String key) {
        DataType type = redis.type(key);
        return switch (type) {
            case STRING -> redis.opsForValue().get(key);
            case HASH -> new TreeMap<>(redis.opsForHash().entries(key));
            case SET -> new java.util.TreeSet<>(redis.opsForSet().members(key));
            case STREAM -> redis.opsForStream().range(key, Range.unbounded()).stream()
                    .map(r -> r.getId().getValue() + "=" + new TreeMap<>(r.getValue())).toList();
            default -> type.code();
        };
    }

    /** The stores at one moment. */
    public record Snapshot(Map<String, Object> redis, List<Map<String, Object>> vouchers,
            List<Map<String, Object>> orders) {}
}
