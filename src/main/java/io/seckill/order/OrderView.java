package io.seckill.order;

import java.time.Instant;

/** An order as the database holds it ({@code GET /api/orders/{orderId}}). */
public record OrderView(String orderId, long voucherId, long userId, String status, Instant createdAt) {

    /** The status of every order in the database ({@code sql/insert-order.sql}). */
    public static final String CREATED = "CREATED";
}
