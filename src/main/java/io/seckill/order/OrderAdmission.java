package io.seckill.order;

import io.seckill.api.AdmissionMetrics;
import io.seckill.api.ApiException;
import io.seckill.api.RequestIds;
import org.springframework.stereotype.Component;

/**
 * Admits one buyer's order for one voucher: validates the ids, runs the admission script, names the outcome and
 * counts an acceptance (refusals are counted where they are answered, {@link AdmissionMetrics}).
 */
@Component("orderAdmission")
public class OrderAdmission {

    private final RequestIds requestIds;
    private final OrderIdGenerator orderIds;
    private final AdmitOrderScript admitOrder;
    private final AdmissionMetrics metrics;

    public OrderAdmission(RequestIds requestIds, OrderIdGenerator orderIds, AdmitOrderScript admitOrder,
            AdmissionMetrics metrics) {
        this.requestIds = requestIds;
        this.orderIds = orderIds;
        this.admitOrder = admitOrder;
        this.metrics = metrics;
    }

    public OrderAccepted admit(String voucherIdText, String userIdText) {
        long voucherId = requestIds.positive(voucherIdText, "voucher id");
        long userId = requestIds.positive(userIdText, "X-User-Id");
        long orderId = orderIds.next();
        AdmissionOutcome outcome = admitOrder.admit(voucherId, userId, orderId);
        if (outcome != AdmissionOutcome.ACCEPTED) {
            throw new ApiException(outcome.problem(), outcome.detail(voucherId));
        }
        metrics.accepted();
        return OrderAccepted.queued(orderId, voucherId, userId);
    }
}
