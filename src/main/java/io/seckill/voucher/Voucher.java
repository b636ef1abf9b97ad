package io.seckill.voucher;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;
import java.util.List;

/**
 * A voucher on sale. {@code remaining} is the live stock from Redis, present only where the answer reads it
 * ({@code GET /api/vouchers/{id}}), with, for a voucher of several buckets, each bucket's ({@code
 * remainingByBucket}, in bucket order; units moving between two buckets at that moment are in neither).
 */
public record Voucher(
        long id,
        String title,
        int stock,
        Instant beginAt,
        Instant endAt,
        int buckets,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long remaining,
        @JsonInclude(JsonInclude.Include.NON_NULL) List<Long> remainingByBucket) {

    Voucher withRemaining(List<Long> byBucket) {
        return new Voucher(id, title, stock, beginAt, endAt, buckets,
                byBucket.stream().mapToLong(Long::longValue).sum(), buckets > 1 ? byBucket : null);
    }

    /** The units each bucket starts with: the stock split evenly, the first buckets taking one more of the rest. */
    long initialStock(int bucket) {
        return stock / buckets + (bucket < stock % buckets ? 1 : 0);
    }
}
