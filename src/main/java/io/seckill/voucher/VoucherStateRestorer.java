package io.seckill.voucher;

import io.seckill.expiry.UnpaidOrderSchedule;
import io.seckill.stream.RedisKeys;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Before any route starts, rebuilds the Redis state of every voucher whose hash is missing (a lost or wiped
 * Redis), so it never resells what was sold. Sold means: a live order in the database (CREATED or PAID; a
 * CANCELLED order gave its unit back), or one still in a stream or
 * among the dead letters. Remaining = stock − sold; buyers = the buyers of those orders. The streams are read
 * before the database, so an order moving from one to the other meanwhile is still counted, once.
 *
 * <p>Buyers go in before the hash: while the hash is missing the voucher answers "not found", never lets a buyer
 * in twice.
 */
@Component
class VoucherStateRestorer implements SmartInitializingSingleton {

    private static final Logger log = LoggerFactory.getLogger(VoucherStateRestorer.class);
    private static final int CHUNK = 1000;

    private final VoucherRepository repository;
    private final LoadVoucherScript loadVoucher;
    private final StringRedisTemplate redis;
    private final RedisKeys keys;
    private final UnpaidOrderSchedule unpaidOrders;

    VoucherStateRestorer(VoucherRepository repository, LoadVoucherScript loadVoucher, StringRedisTemplate redis,
            RedisKeys keys, UnpaidOrderSchedule unpaidOrders) {
        this.repository = repository;
        this.loadVoucher = loadVoucher;
        this.redis = redis;
        this.keys = keys;
        this.unpaidOrders = unpaidOrders;
    }

    @Override
    public void afterSingletonsInstantiated() {
        List<Voucher> missing = repository.all().stream()
                .filter(voucher -> !Boolean.TRUE.equals(redis.hasKey(keys.voucher(voucher.id()))))
                .toList();
        if (missing.isEmpty()) {
            return;
        }
        Set<Long> ids = new HashSet<>();
        missing.forEach(voucher -> ids.add(voucher.id()));
        Map<Long, Map<Long, Long>> unwritten = ordersInStreams(ids);
        for (Voucher voucher : missing) {
            restore(voucher, unwritten.getOrDefault(voucher.id(), new HashMap<>()));
        }
    }

    private void restore(Voucher voucher, Map<Long, Long> buyerByOrderInStreams) {
        String buyersKey = keys.buyers(voucher.id());
        List<String> chunk = new ArrayList<>(CHUNK);
        long[] written = {0};
        repository.forEachOrder(voucher.id(), order -> {
            written[0]++;
            buyerByOrderInStreams.remove(order.orderId());
            chunk.add(Long.toString(order.userId()));
            if (chunk.size() == CHUNK) {
                addBuyers(buyersKey, chunk);
            }
        });
        buyerByOrderInStreams.values().forEach(userId -> chunk.add(Long.toString(userId)));
        addBuyers(buyersKey, chunk);
        unpaidOrders.reschedule(voucher.id());
        long sold = written[0] + buyerByOrderInStreams.size();
        long remaining = Math.max(0, voucher.stock() - sold);
        loadVoucher.load(voucher, remaining);
        log.warn("Voucher {}: Redis state was missing, rebuilt with {} remaining of {} ({} orders in the database, "
                + "{} still in streams)", voucher.id(), remaining, voucher.stock(), written[0],
                buyerByOrderInStreams.size());
    }

    private void addBuyers(String buyersKey, List<String> chunk) {
        if (!chunk.isEmpty()) {
            redis.opsForSet().add(buyersKey, chunk.toArray(String[]::new));
            chunk.clear();
        }
    }

    /** voucherId → (orderId → userId) for the orders of the given vouchers still in an order or dead-letter stream. */
    private Map<Long, Map<Long, Long>> ordersInStreams(Set<Long> voucherIds) {
        Map<Long, Map<Long, Long>> found = new HashMap<>();
        List<String> streams = new ArrayList<>(keys.orderStreams());
        streams.addAll(keys.deadLetterStreams());
        for (String stream : streams) {
            Range<String> range = Range.unbounded();
            while (true) {
                // XRANGE key start + COUNT 1000
                List<MapRecord<String, Object, Object>> page = redis.opsForStream().range(stream, range,
                        Limit.limit().count(CHUNK));
                if (page == null || page.isEmpty()) {
                    break;
                }
                for (MapRecord<String, Object, Object> record : page) {
                    collect(record.getValue(), voucherIds, found);
                }
                String last = page.get(page.size() - 1).getId().getValue();
                range = Range.rightUnbounded(Range.Bound.exclusive(last));
            }
        }
        return found;
    }

    private static void collect(Map<Object, Object> fields, Set<Long> voucherIds, Map<Long, Map<Long, Long>> found) {
        try {
            long voucherId = Long.parseLong(String.valueOf(fields.get("voucherId")));
            if (voucherIds.contains(voucherId)) {
                found.computeIfAbsent(voucherId, id -> new HashMap<>()).put(
                        Long.parseLong(String.valueOf(fields.get("orderId"))),
                        Long.parseLong(String.valueOf(fields.get("userId"))));
            }
        } catch (NumberFormatException malformed) {
            // A malformed entry is no order of any voucher; the writer dead-letters it.
        }
    }
}
