package io.seckill.order;

import io.seckill.api.AdmissionMetrics;
import io.seckill.api.ApiException;
import io.seckill.api.ProblemCode;
import io.seckill.voucher.RedisStateCheck;
import io.seckill.voucher.RedisStateProperties;
import org.springframework.stereotype.Component;

/**
 * Admits one buyer's order for one voucher: runs the admission script, names the outcome and counts an acceptance
 * (refusals are counted where they are answered, {@link AdmissionMetrics}). The ids were checked by the route
 * (io.seckill.api.RequestIds) before any rate limit or script.
 */
@Component("orderAdmission")
public class OrderAdmission {

    private final OrderIdGenerator orderIds;
    private final AdmitOrderScript admitOrder;
    private final AdmissionMetrics metrics;
    private final RedisStateCheck redisState;
    private final long rebuildingRetryAfterSeconds;

    public OrderAdmission(OrderIdGenerator orderIds, AdmitOrderScript admitOrder, AdmissionMetrics metrics,
            RedisStateCheck redisState, RedisStateProperties redisStateProperties) {
        this.orderIds = orderIds;
        this.admitOrder = admitOrder;
        this.metrics = metrics;
        this.redisState = redisState;
        this.rebuildingRetryAfterSeconds = Math.max(1, redisStateProperties.retryAfter().toSeconds());
    }

    public OrderAccepted admit(long voucherId, long userId) {
        long orderId = orderIds.next();
        AdmissionOutcome outcome = admitOrder.admit(voucherId, userId, orderId);
        // A voucher unknown to a shard that lost its marker may be one Redis forgot: the next check rebuilds it.
        if (outcome == AdmissionOutcome.REBUILDING
                || outcome == AdmissionOutcome.VOUCHER_NOT_FOUND && redisState.forgotten(voucherId)) {
            throw new ApiException(ProblemCode.VOUCHER_REBUILDING, AdmissionOutcome.REBUILDING.detail(voucherId),
                    rebuildingRetryAfterSeconds);
        }
        if (outcome != AdmissionOutcome.ACCEPTED) {
            throw new ApiException(outcome.problem(), outcome.detail(voucherId));
        }
        metrics.accepted();
        return OrderAccepted.queued(orderId, voucherId, userId);
    }
}
