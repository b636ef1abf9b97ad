package io.seckill.order;

import io.seckill.api.ApiException;
import io.seckill.api.RequestIds;
import org.springframework.stereotype.Component;

/** Admits one buyer's order for one voucher: validates the ids, runs the admission script, names the outcome. */
@Component("orderAdmission")
public class OrderAdmission {

    private final RequestIds requestIds;
    private final OrderIdGenerator orderIds;
    private final AdmitOrderScript admitOrder;

    public OrderAdmission(RequestIds requestIds, OrderIdGenerator orderIds, AdmitOrderScript admitOrder) {
        this.requestIds = requestIds;
        this.orderIds = orderIds;
        this.admitOrder = admitOrder;
    }

    public OrderAccepted admit(String voucherIdText, String userIdText) {
        long voucherId = requestIds.positive(voucherIdText, "voucher id");
        long userId = requestIds.positive(userIdText, "X-User-Id");
        long orderId = orderIds.next();
        AdmissionOutcome outcome = admitOrder.admit(voucherId, userId, orderId);
        if (outcome != AdmissionOutcome.ACCEPTED) {
            throw new ApiException(outcome.problem(), outcome.detail(voucherId));
        }
        return OrderAccepted.queued(orderId, voucherId, userId);
    }
}
