package io.seckill.voucher;

import io.seckill.expiry.UnpaidOrderSchedule;
import io.seckill.order.OrderRejectedException;
import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Rebuilds vouchers' sale state in Redis from the database and the streams: remaining = stock − units held (live
 * orders in the database, entries pending or unread in the stream, dead letters but OVERSOLD ones), buyers = the
 * buyers of all of those.
 *
 * <p>Each voucher is first marked {@code rebuilding} with a token of this rebuild: from then on the admission script
 * answers 503 VOUCHER_REBUILDING, so nothing is sold while the figures are read, and they are exact. The orders
 * stream is read before and after the dead letters (an entry moving either way between them is seen), the
 * database last (an entry written meanwhile is seen in the stream and counted once, by orderId). The new state
 * goes in with one script, which also lifts the mark, and only if the mark is still this rebuild's: of two
 * instances rebuilding at once, the later one's figures win. While the mark stands no cancelled order's unit is
 * returned (returnUnit-3.lua waits), so a cancelled order still scheduled counts as holding its unit, and the
 * unpaid orders are scheduled again under the mark, never beside an order being cancelled: each unit comes back
 * once.
 */
@Component
public class VoucherStateRebuilder {

    private static final Logger log = LoggerFactory.getLogger(VoucherStateRebuilder.class);
    private static final int PAGE = 1000;
    private static final String TOKEN_TIME = "@";

    private final VoucherRepository repository;
    private final RebuildVoucherScript rebuildVoucher;
    private final StringRedisTemplate redis;
    private final RedisKeys keys;
    private final UnpaidOrderSchedule unpaidOrders;
    private final String instance;
    private final Clock clock = Clock.systemUTC();

    public VoucherStateRebuilder(VoucherRepository repository, RebuildVoucherScript rebuildVoucher,
            StringRedisTemplate redis, RedisKeys keys, StreamProperties stream, UnpaidOrderSchedule unpaidOrders) {
        this.repository = repository;
        this.rebuildVoucher = rebuildVoucher;
        this.redis = redis;
        this.keys = keys;
        this.unpaidOrders = unpaidOrders;
        this.instance = stream.consumerName();
    }

    /**
     * Rebuilds these vouchers, each in every one of its stock buckets (docs/buckets.md).
     *
     * @param cause why each voucher is rebuilt, for the log
     * @param marked run once every voucher is marked, before anything is read
     */
    public void rebuild(Collection<Voucher> vouchers, Function<Voucher, String> cause, Runnable marked) {
        String token = instance + TOKEN_TIME + clock.millis();
        for (Voucher voucher : vouchers) {
            for (int shard : bucketShards(voucher)) {
                // HSET <bucket> rebuilding <token>: admissions and transfers of this voucher stop here
                redis.opsForHash().put(keys.voucherOn(shard, voucher.id()), "rebuilding", token);
            }
        }
        marked.run();
        if (vouchers.isEmpty()) {
            return;
        }
        Map<Long, SoldUnits> sold = soldUnits(vouchers);
        for (Voucher voucher : vouchers) {
            SoldUnits units = sold.get(voucher.id());
            // Read after the database: no unit is returned while the voucher is marked (returnUnit-3.lua).
            Set<String> cancelled = units.cancelledMembers();
            Set<String> unreturned = new HashSet<>();
            for (int shard : bucketShards(voucher)) {
                unreturned.addAll(unpaidOrders.unreturned(shard, cancelled));
            }
            units.unreturned(unreturned);
            long remaining = units.remaining(voucher.stock());
            if (apply(voucher, token, units, remaining)) {
                log.warn("Voucher {} rebuilt in Redis ({}): {} remaining of {}, {} buyers", voucher.id(),
                        cause.apply(voucher), remaining, voucher.stock(), units.buyers().size());
            } else {
                log.info("Voucher {}: another rebuild took over; its figures stand", voucher.id());
            }
        }
    }

    /**
     * Each bucket gets an even share of what remains, and the buyers and unpaid orders whose home bucket it is. The
     * due orders may have gone with the rest of the voucher's state: its unpaid orders fall due again, under the
     * mark, before it is lifted.
     *
     * @return false when another rebuild marked a bucket since: its own figures stand there
     */
    private boolean apply(Voucher voucher, String token, SoldUnits units, long remaining) {
        int buckets = voucher.buckets();
        Map<Integer, Set<Long>> buyers = new HashMap<>();
        units.buyers().forEach(buyer -> buyers.computeIfAbsent(RedisKeys.homeBucket(buyer, buckets),
                bucket -> new HashSet<>()).add(buyer));
        Map<Integer, Map<String, Long>> unpaid = new HashMap<>();
        units.unpaid().forEach((member, payBefore) -> unpaid.computeIfAbsent(RedisKeys.homeBucket(
                RedisKeys.buyerOf(member), buckets), bucket -> new HashMap<>()).put(member, payBefore));
        boolean applied = true;
        for (int bucket = 0; bucket < buckets; bucket++) {
            int shard = keys.bucketShard(voucher.id(), bucket);
            long share = remaining / buckets + (bucket < remaining % buckets ? 1 : 0);
            applied &= unpaidOrders.schedule(voucher.id(), shard, token, unpaid.getOrDefault(bucket, Map.of()))
                    && rebuildVoucher.apply(voucher, shard, token, share, buyers.getOrDefault(bucket, Set.of()));
        }
        return applied;
    }

    /** The shards of the voucher's stock buckets, in bucket order. */
    List<Integer> bucketShards(Voucher voucher) {
        return IntStream.range(0, voucher.buckets()).mapToObj(bucket -> keys.bucketShard(voucher.id(), bucket))
                .toList();
    }

    /** When a {@code rebuilding} mark was set, in epoch ms (0 for a mark this service did not write). */
    static long markedAt(String token) {
        try {
            return Long.parseLong(token.substring(token.lastIndexOf(TOKEN_TIME) + 1));
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** The units of these vouchers as the streams and then the database tell them now. */
    private Map<Long, SoldUnits> soldUnits(Collection<Voucher> vouchers) {
        Map<Long, SoldUnits> sold = inStreams(vouchers);
        for (Voucher voucher : vouchers) {
            SoldUnits units = sold.get(voucher.id());
            repository.forEachOrder(voucher.id(), order -> units.row(order.orderId(), order.userId(),
                    order.status(), order.payBefore()));
        }
        return sold;
    }

    /** The units of these vouchers that the order and dead-letter streams of their buckets' shards hold. */
    Map<Long, SoldUnits> inStreams(Collection<Voucher> vouchers) {
        Map<Long, SoldUnits> sold = new LinkedHashMap<>();
        Set<Integer> shards = new TreeSet<>();
        vouchers.forEach(voucher -> {
            sold.put(voucher.id(), new SoldUnits());
            shards.addAll(bucketShards(voucher));
        });
        for (int shard : shards) {
            String orders = keys.ordersOn(shard);
            read(orders, sold);
            read(keys.deadLettersOf(orders), sold);
            read(orders, sold);
        }
        return sold;
    }

    private void read(String stream, Map<Long, SoldUnits> sold) {
        Range<String> range = Range.unbounded();
        while (true) {
            // XRANGE key start + COUNT 1000
            List<MapRecord<String, Object, Object>> page = redis.opsForStream().range(stream, range,
                    Limit.limit().count(PAGE));
            if (page == null || page.isEmpty()) {
                return;
            }
            for (MapRecord<String, Object, Object> record : page) {
                count(record.getValue(), sold);
            }
            String last = page.get(page.size() - 1).getId().getValue();
            range = Range.rightUnbounded(Range.Bound.exclusive(last));
        }
    }

    private static void count(Map<Object, Object> fields, Map<Long, SoldUnits> sold) {
        try {
            SoldUnits units = sold.get(Long.parseLong(String.valueOf(fields.get("voucherId"))));
            if (units == null) {
                return;
            }
            long orderId = Long.parseLong(String.valueOf(fields.get("orderId")));
            long buyer = Long.parseLong(String.valueOf(fields.get("userId")));
            Long payBefore = fields.get("payBefore") == null ? null
                    : Long.parseLong(String.valueOf(fields.get("payBefore")));
            if (OrderRejectedException.Reason.OVERSOLD.name().equals(fields.get("reason"))) {
                units.oversold(orderId, buyer, payBefore);
            } else {
                units.queued(orderId, buyer, payBefore);
            }
        } catch (NumberFormatException malformed) {
            // A malformed entry is no order of any voucher; the writer dead-letters it.
        }
    }
}
