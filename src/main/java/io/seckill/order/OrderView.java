package io.seckill.order;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Instant;

/**
 * An order as the database holds it ({@code GET /api/orders/{orderId}}, and the events).
 *
 * @param payBefore until when the buyer can pay; shown only while the order is unpaid ({@code CREATED})
 */
public record OrderView(String orderId, long voucherId, long userId, String status, Instant createdAt,
        @JsonInclude(JsonInclude.Include.NON_NULL) Instant payBefore) {

    /** Written, not paid yet ({@code sql/insert-order.sql}). */
    public static final String CREATED = "CREATED";
    public static final String PAID = "PAID";
    /** Unpaid when its window ran out; its unit went back on sale. */
    public static final String CANCELLED = "CANCELLED";

    public OrderView {
        if (!CREATED.equals(status)) {
            payBefore = null;
        }
    }

    public OrderView withStatus(String newStatus) {
        return new OrderView(orderId, voucherId, userId, newStatus, createdAt, payBefore);
    }
}
