package io.seckill.order;

import io.seckill.api.AdmissionMetrics;
import io.seckill.api.ApiException;
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

    public OrderAdmission(OrderIdGenerator orderIds, AdmitOrderScript admitOrder, AdmissionMetrics metrics) {
        this.orderIds = orderIds;
        this.admitOrder = admitOrder;
        this.metrics = metrics;
    }

    public OrderAccepted admit(long voucherId, long userId) {
        long orderId = orderIds.next();
        AdmissionOutcome outcome = admitOrder.admit(voucherId, userId, orderId);
        if (outcome != AdmissionOutcome.ACCEPTED) {
            throw new ApiException(outcome.problem(), outcome.detail(voucherId));
        }
        metrics.accepted();
        return OrderAccepted.queued(orderId, voucherId, userId);
    }
}
