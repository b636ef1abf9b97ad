package io.seckill.order;

import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** An accepted order as the writer inserts it ({@code sql/insert-order.sql}); {@code acceptedAt} in epoch ms. */
public record OrderRow(long orderId, long voucherId, long userId, long acceptedAt) {

    /** The parameter of {@code sql/insert-order.sql} with this name. */
    Object parameter(String name) {
        return switch (name) {
            case "orderId" -> orderId;
            case "voucherId" -> voucherId;
            case "userId" -> userId;
            case "createdAt" -> OffsetDateTime.ofInstant(Instant.ofEpochMilli(acceptedAt), ZoneOffset.UTC);
            default -> throw new IllegalStateException("sql/insert-order.sql names an unknown parameter :#" + name);
        };
    }

    /** The order as {@code GET /api/orders/{orderId}} will answer it once written. */
    OrderView written() {
        return new OrderView(Long.toString(orderId), voucherId, userId, OrderView.CREATED,
                Instant.ofEpochMilli(acceptedAt));
    }
}
