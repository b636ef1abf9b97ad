package io.seckill.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.stream.RedisKeys;
import java.util.Map;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The contract's invariants for one voucher at a quiet moment, read from the stores themselves: every key is
 * addressed by name (no SCAN), so this works on a Redis Cluster too.
 */
public final class Invariants {

    private final StringRedisTemplate redis;
    private final JdbcTemplate jdbc;
    private final RedisKeys keys;

    public Invariants(StringRedisTemplate redis, JdbcTemplate jdbc, RedisKeys keys) {
        this.redis = redis;
        this.jdbc = jdbc;
        this.keys = keys;
    }

    /**
     * Where a voucher's sold units are, and what Redis says is left. {@code rows} and {@code distinctBuyers} count
     * live orders (CREATED or PAID); a CANCELLED order gave its unit back.
     */
    public record Ledger(long rows, long distinctBuyers, long inStream, long deadLetters, long buyersInRedis,
            long remaining, long cancelledRows) {

        public long sold() {
            return rows + inStream + deadLetters;
        }
    }

    public Ledger ledger(long voucherId) {
        String stream = keys.ordersOf(voucherId);
        Object stock = redis.opsForHash().get(keys.voucher(voucherId), "stock");
        Long buyers = redis.opsForSet().size(keys.buyers(voucherId));
        return new Ledger(
                jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE voucher_id = ? AND status IN ('CREATED', 'PAID')",
                        Long.class, voucherId),
                jdbc.queryForObject("SELECT COUNT(DISTINCT user_id) FROM orders WHERE voucher_id = ?"
                        + " AND status IN ('CREATED', 'PAID')", Long.class, voucherId),
                entriesOf(stream, voucherId),
                entriesOf(keys.deadLettersOf(stream), voucherId),
                buyers == null ? 0 : buyers,
                stock == null ? -1 : Long.parseLong(stock.toString()),
                jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE voucher_id = ? AND status = 'CANCELLED'",
                        Long.class, voucherId));
    }

    /**
     * live rows + stream entries + dead letters = stock − remaining (so every cancelled order gave its unit back
     * exactly once: one too many or too few breaks the sum); no buyer with two live orders; remaining ≥ 0; and
     * every unit taken in Redis has its buyer recorded.
     */
    public Ledger assertHold(long voucherId, long stock) {
        Ledger ledger = ledger(voucherId);
        assertThat(ledger.remaining()).as("remaining of voucher %d", voucherId).isBetween(0L, stock);
        assertThat(ledger.sold()).as("rows + stream + dead letters of voucher %d (%s)", voucherId, ledger)
                .isEqualTo(stock - ledger.remaining());
        assertThat(ledger.distinctBuyers()).as("buyers with a row for voucher %d", voucherId)
                .isEqualTo(ledger.rows());
        assertThat(ledger.buyersInRedis()).as("buyers of voucher %d in Redis", voucherId)
                .isEqualTo(stock - ledger.remaining());
        return ledger;
    }

    /** XRANGE key - +: the entries of one voucher (a shard stream holds several vouchers). */
    private long entriesOf(String stream, long voucherId) {
        String id = Long.toString(voucherId);
        return redis.opsForStream().range(stream, Range.unbounded()).stream()
                .map(MapRecord::getValue)
                .filter((Map<Object, Object> fields) -> id.equals(fields.get("voucherId")))
                .count();
    }
}
