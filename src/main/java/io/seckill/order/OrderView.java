package io.seckill.order;

import java.time.Instant;

/** An order as the database holds it ({@code GET /api/orders/{orderId}}). */
public record OrderView(String orderId, long voucherId, long userId, String status, Instant createdAt) {}
