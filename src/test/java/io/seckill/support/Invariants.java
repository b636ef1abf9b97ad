package io.seckill.support;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.redis.RedisKeys;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The contract's invariants for one voucher at a quiet moment, read from the stores themselves: every key is
 * addressed by name (no SCAN), so this works on a Redis Cluster too.
 */
public final class Invariants {

    /** The dead-letter reason of an order Redis sold beyond the stock: the database had no unit for it. */
    public static final String OVERSOLD = "OVERSOLD";

    private final StringRedisTemplate redis;
    private final JdbcTemplate jdbc;
    private final RedisKeys keys;

    public Invariants(StringRedisTemplate redis, JdbcTemplate jdbc, RedisKeys keys) {
        this.redis = redis;
        this.jdbc = jdbc;
        this.keys = keys;
    }

    /**
     * Where a voucher's sold units are, and what Redis says is left.
     *
     * @param rows live orders (CREATED or PAID) in the database
     * @param soldInDatabase the voucher's {@code sold} column
     * @param oversold dead letters with reason OVERSOLD (among {@code deadLetters}): sold by Redis, no unit held
     * @param buyers distinct buyers of the live rows, the stream entries and the dead letters together
     * @param cancelledRows CANCELLED orders: their units went back on sale
     */
    public record Ledger(long rows, long soldInDatabase, long distinctBuyers, long inStream, long deadLetters,
            long oversold, long buyers, long buyersInRedis, long remaining, long cancelledRows) {

        /** Units held: live rows, stream entries, dead letters but OVERSOLD ones. */
        public long sold() {
            return rows + inStream + deadLetters - oversold;
        }
    }

    public Ledger ledger(long voucherId) {
        String stream = keys.ordersOf(voucherId);
        Object stock = redis.opsForHash().get(keys.voucher(voucherId), "stock");
        Long buyersInRedis = redis.opsForSet().size(keys.buyers(voucherId));
        List<Long> liveBuyers = jdbc.queryForList(
                "SELECT user_id FROM orders WHERE voucher_id = ? AND status IN ('CREATED', 'PAID')", Long.class,
                voucherId);
        List<Map<Object, Object>> entries = entriesOf(stream, voucherId);
        List<Map<Object, Object>> deadLetters = entriesOf(keys.deadLettersOf(stream), voucherId);
        Set<String> buyers = new HashSet<>();
        liveBuyers.forEach(buyer -> buyers.add(buyer.toString()));
        entries.forEach(entry -> buyers.add(String.valueOf(entry.get("userId"))));
        deadLetters.forEach(letter -> buyers.add(String.valueOf(letter.get("userId"))));
        return new Ledger(
                liveBuyers.size(),
                jdbc.queryForObject("SELECT sold FROM vouchers WHERE id = ?", Long.class, voucherId),
                new HashSet<>(liveBuyers).size(),
                entries.size(),
                deadLetters.size(),
                deadLetters.stream().filter(letter -> OVERSOLD.equals(letter.get("reason"))).count(),
                buyers.size(),
                buyersInRedis == null ? 0 : buyersInRedis,
                stock == null ? -1 : Long.parseLong(stock.toString()),
                jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE voucher_id = ? AND status = 'CANCELLED'",
                        Long.class, voucherId));
    }

    /**
     * Whatever Redis says, the database holds no more live orders than the stock and no buyer twice, and its
     * {@code sold} counts them; rows + stream entries + dead letters (OVERSOLD ones held no unit) = stock −
     * remaining (so every cancelled order gave its unit back exactly once: one too many or too few breaks the sum);
     * remaining ≥ 0; and Redis knows every buyer who got a unit or a dead letter.
     */
    public Ledger assertHold(long voucherId, long stock) {
        Ledger ledger = ledger(voucherId);
        assertThat(ledger.rows()).as("live orders of voucher %d in the database (%s)", voucherId, ledger)
                .isLessThanOrEqualTo(stock);
        assertThat(ledger.distinctBuyers()).as("buyers with a live order for voucher %d", voucherId)
                .isEqualTo(ledger.rows());
        assertThat(ledger.soldInDatabase()).as("vouchers.sold of voucher %d", voucherId).isEqualTo(ledger.rows());
        assertThat(ledger.remaining()).as("remaining of voucher %d", voucherId).isBetween(0L, stock);
        assertThat(ledger.sold()).as("rows + stream + dead letters but OVERSOLD of voucher %d (%s)", voucherId,
                ledger).isEqualTo(stock - ledger.remaining());
        assertThat(ledger.buyersInRedis()).as("buyers of voucher %d in Redis (%s)", voucherId, ledger)
                .isEqualTo(ledger.buyers());
        return ledger;
    }

    /** XRANGE key - +: the entries of one voucher (a shard stream holds several vouchers). */
    private List<Map<Object, Object>> entriesOf(String stream, long voucherId) {
        String id = Long.toString(voucherId);
        return redis.opsForStream().range(stream, Range.unbounded()).stream()
                .map(MapRecord::getValue)
                .filter((Map<Object, Object> fields) -> id.equals(fields.get("voucherId")))
                .toList();
    }
}
