package io.seckill.voucher;

import java.time.Instant;

/** A validated {@code POST /api/vouchers} body. {@code endAt} null means the sale never ends. */
public record VoucherRequest(String title, int stock, Instant beginAt, Instant endAt) {}
