package io.seckill.redis;

import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * How many stock buckets each voucher has (docs/buckets.md), as far as this instance has learned it. A voucher's
 * count never changes once it is created, so what was learned holds for ever. The intake learns only of vouchers of
 * several buckets: any other is taken to have one, and the admission script says otherwise (its answer OTHER_BUCKETS)
 * the first time this instance takes an order for it; the expiry and the payments learn from the database.
 */
@Component
public class BucketCounts {

    private final ConcurrentHashMap<Long, Integer> counts = new ConcurrentHashMap<>();

    /** The count learned, or 1. */
    public int of(long voucherId) {
        Integer buckets = counts.get(voucherId);
        return buckets == null ? 1 : buckets;
    }

    /** The count learned, or null. */
    public Integer known(long voucherId) {
        return counts.get(voucherId);
    }

    public void learn(long voucherId, int buckets) {
        counts.put(voucherId, buckets);
    }
}
