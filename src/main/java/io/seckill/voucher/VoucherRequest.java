package io.seckill.voucher;

import java.time.Instant;

/**
 * A validated {@code POST /api/vouchers} body. {@code endAt} null means the sale never ends; {@code buckets} is the
 * number of stock buckets the stock is split into, each on a shard of its own (docs/buckets.md).
 */
public record VoucherRequest(String title, int stock, Instant beginAt, Instant endAt, int buckets) {

    /** A voucher of one bucket. */
    public VoucherRequest(String title, int stock, Instant beginAt, Instant endAt) {
        this(title, stock, beginAt, endAt, 1);
    }
}
