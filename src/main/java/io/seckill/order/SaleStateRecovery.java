package io.seckill.order;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * What the intake asks of the part that notices Redis forgot sale state and rebuilds it
 * ({@code io.seckill.voucher.RedisStateCheck}): an order for a voucher Redis does not know may be one it forgot, to
 * be answered 503 VOUCHER_REBUILDING rather than 404. An interface here, so that the intake does not depend on the
 * rebuild, which reads orders.
 */
public interface SaleStateRecovery {

    /** Whether this shard lost its marker: Redis forgot it since the last check. */
    CompletableFuture<Boolean> forgotten(int shard);

    /** The {@code Retry-After} of a 503 VOUCHER_REBUILDING. */
    Duration retryAfter();
}
