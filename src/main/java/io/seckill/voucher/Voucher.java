package io.seckill.voucher;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * A voucher on sale. {@code remaining} is the live stock from Redis, present only where the answer reads it
 * ({@code GET /api/vouchers/{id}}).
 */
public record Voucher(
        long id,
        String title,
        int stock,
        Instant beginAt,
        Instant endAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) Long remaining) {

    Voucher withRemaining(long remaining) {
        return new Voucher(id, title, stock, beginAt, endAt, remaining);
    }
}
