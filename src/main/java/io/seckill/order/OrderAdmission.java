package io.seckill.order;

import io.seckill.api.AdmissionMetrics;
import io.seckill.api.ApiException;
import io.seckill.api.ProblemCode;
import io.seckill.ratelimit.RateLimits;
import io.seckill.voucher.RedisStateCheck;
import io.seckill.voucher.RedisStateProperties;
import java.util.concurrent.CompletableFuture;
import org.springframework.stereotype.Component;

/**
 * Admits one buyer's order for one voucher: runs the admission script (rate limits included), names the outcome and
 * counts an acceptance (refusals are counted where they are answered, {@link AdmissionMetrics}). The ids were
 * checked by the route (io.seckill.api.RequestIds) before the script.
 */
@Component("orderAdmission")
public class OrderAdmission {

    private final OrderIdGenerator orderIds;
    private final AdmitOrderScript admitOrder;
    private final RateLimits rateLimits;
    private final AdmissionMetrics metrics;
    private final RedisStateCheck redisState;
    private final long rebuildingRetryAfterSeconds;

    public OrderAdmission(OrderIdGenerator orderIds, AdmitOrderScript admitOrder, RateLimits rateLimits,
            AdmissionMetrics metrics, RedisStateCheck redisState, RedisStateProperties redisStateProperties) {
        this.orderIds = orderIds;
        this.admitOrder = admitOrder;
        this.rateLimits = rateLimits;
        this.metrics = metrics;
        this.redisState = redisState;
        this.rebuildingRetryAfterSeconds = Math.max(1, redisStateProperties.retryAfter().toSeconds());
    }

    /**
     * Completes on the Redis client's I/O thread, with the order or with the {@link ApiException} that refuses it (a
     * Redis failure as Spring's exception): no thread waits for Redis.
     */
    public CompletableFuture<OrderAccepted> admit(long voucherId, long userId, String clientAddress) {
        long orderId = orderIds.next();
        return admitOrder.admit(voucherId, userId, orderId, clientAddress).thenCompose(answer -> {
            AdmissionOutcome outcome = answer.outcome();
            if (outcome == AdmissionOutcome.BUYER_RATE_LIMITED) {
                throw rateLimits.buyerRefusal(userId, answer.waitMicros());
            }
            if (outcome == AdmissionOutcome.ADDRESS_RATE_LIMITED) {
                throw rateLimits.addressRefusal(clientAddress, answer.waitMicros());
            }
            if (outcome == AdmissionOutcome.REBUILDING) {
                throw rebuilding(voucherId);
            }
            // A voucher unknown to a shard that lost its marker may be one Redis forgot: the next check rebuilds it.
            if (outcome == AdmissionOutcome.VOUCHER_NOT_FOUND) {
                return redisState.forgotten(voucherId).thenApply(forgotten -> {
                    throw forgotten ? rebuilding(voucherId) : refusal(outcome, voucherId);
                });
            }
            if (outcome != AdmissionOutcome.ACCEPTED) {
                throw refusal(outcome, voucherId);
            }
            metrics.accepted();
            return CompletableFuture.completedFuture(OrderAccepted.queued(orderId, voucherId, userId));
        });
    }

    private ApiException rebuilding(long voucherId) {
        return new ApiException(ProblemCode.VOUCHER_REBUILDING, AdmissionOutcome.REBUILDING.detail(voucherId),
                rebuildingRetryAfterSeconds);
    }

    private static ApiException refusal(AdmissionOutcome outcome, long voucherId) {
        return new ApiException(outcome.problem(), outcome.detail(voucherId));
    }
}
