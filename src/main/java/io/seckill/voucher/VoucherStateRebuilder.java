package io.seckill.voucher;

import io.seckill.expiry.UnpaidOrderSchedule;
import io.seckill.order.OrderRejectedException;
import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
     * Rebuilds these vouchers, every one on the given shard.
     *
     * @param marked run once every voucher is marked, before anything is read
     */
    public void rebuild(int shard, Collection<Voucher> vouchers, String cause, Runnable marked) {
        String token = instance + TOKEN_TIME + clock.millis();
        for (Voucher voucher : vouchers) {
            // HSET voucher rebuilding <token>: admissions of this voucher stop here
            redis.opsForHash().put(keys.voucher(voucher.id()), "rebuilding", token);
        }
        marked.run();
        if (vouchers.isEmpty()) {
            return;
        }
        Map<Long, SoldUnits> sold = soldUnits(shard, vouchers);
        for (Voucher voucher : vouchers) {
            SoldUnits units = sold.get(voucher.id());
            // Read after the database: no unit is returned while the voucher is marked (returnUnit-3.lua).
            units.unreturned(unpaidOrders.unreturned(voucher.id(), units.cancelledMembers()));
            long remaining = units.remaining(voucher.stock());
            // The due orders may have gone with the rest of the voucher's state: its unpaid orders fall due again,
            // under the mark, before it is lifted.
            if (unpaidOrders.schedule(voucher.id(), token, units.unpaid())
                    && rebuildVoucher.apply(voucher, token, remaining, units.buyers())) {
                log.warn("Voucher {} rebuilt in Redis ({}): {} remaining of {}, {} buyers", voucher.id(), cause,
                        remaining, voucher.stock(), units.buyers().size());
            } else {
                log.info("Voucher {}: another rebuild took over; its figures stand", voucher.id());
            }
        }
    }

    /** When a {@code rebuilding} mark was set, in epoch ms (0 for a mark this service did not write). */
    static long markedAt(String token) {
        try {
            return Long.parseLong(token.substring(token.lastIndexOf(TOKEN_TIME) + 1));
        } catch (RuntimeException e) {
            return 0;
        }
    }

    /** The units of these vouchers (all of one shard) as the streams and then the database tell them now. */
    private Map<Long, SoldUnits> soldUnits(int shard, Collection<Voucher> vouchers) {
        Map<Long, SoldUnits> sold = inStreams(shard, vouchers);
        for (Voucher voucher : vouchers) {
            SoldUnits units = sold.get(voucher.id());
            repository.forEachOrder(voucher.id(), order -> units.row(order.orderId(), order.userId(),
                    order.status(), order.payBefore()));
        }
        return sold;
    }

    /** The units of these vouchers (all of one shard) that the order and dead-letter streams hold. */
    Map<Long, SoldUnits> inStreams(int shard, Collection<Voucher> vouchers) {
        Map<Long, SoldUnits> sold = new LinkedHashMap<>();
        vouchers.forEach(voucher -> sold.put(voucher.id(), new SoldUnits()));
        String orders = keys.orderStreams().get(shard);
        read(orders, sold);
        read(keys.deadLettersOf(orders), sold);
        read(orders, sold);
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

    /** Vouchers by the shard they live on. */
    Map<Integer, List<Voucher>> byShard(Collection<Voucher> vouchers) {
        Map<Integer, List<Voucher>> shards = new HashMap<>();
        vouchers.forEach(voucher -> shards.computeIfAbsent(keys.shardOf(voucher.id()), s -> new ArrayList<>())
                .add(voucher));
        return shards;
    }
}
