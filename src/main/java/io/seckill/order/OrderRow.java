package io.seckill.order;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/**
 * An accepted order as the writer inserts it ({@code sql/insert-order.sql}); {@code acceptedAt} and
 * {@code payBefore} in epoch ms, {@code payBefore} null for an entry from before payment windows (it never expires).
 */
public record OrderRow(long orderId, long voucherId, long userId, long acceptedAt, Long payBefore) {

    /** The parameter of {@code sql/insert-order.sql} with this name. */
    Object parameter(String name) {
        return switch (name) {
            case "orderId" -> orderId;
            case "voucherId" -> voucherId;
            case "userId" -> userId;
            case "createdAt" -> utc(acceptedAt);
            case "payBefore" -> payBefore == null ? null : utc(payBefore);
            default -> throw new IllegalStateException("sql/insert-order.sql names an unknown parameter :#" + name);
        };
    }

    /** The order as {@code GET /api/orders/{orderId}} will answer it once written. */
    OrderView written() {
        return new OrderView(Long.toString(orderId), voucherId, userId, OrderView.CREATED,
                Instant.ofEpochMilli(acceptedAt), payBefore == null ? null : Instant.ofEpochMilli(payBefore));
    }

    /**
     * Without {@code OffsetDateTime.ofInstant}: on JDK 17 it asks the offset for its rules, and {@code
     * ZoneOffset.getRules()} builds a new {@code ZoneRules} (a ConcurrentHashMap inside) on every call, twice per
     * order written (1.3 % of the service's allocation at the saturated intake, async-profiler).
     */
    private static OffsetDateTime utc(long epochMillis) {
        Instant instant = Instant.ofEpochMilli(epochMillis);
        LocalDateTime utc = LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC);
        return OffsetDateTime.of(utc, ZoneOffset.UTC);
    }
}
