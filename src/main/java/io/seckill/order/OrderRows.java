package io.seckill.order;

import io.seckill.stream.StreamEntry;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/**
 * Turns stream entries into the parameters of {@code sql/insert-order.sql}, and a written row into the order as
 * the API shows it (the event announcing it).
 */
@Component("orderRows")
public class OrderRows {

    public List<Map<String, Object>> fromEntries(List<StreamEntry> entries) {
        List<Map<String, Object>> rows = new ArrayList<>(entries.size());
        for (StreamEntry entry : entries) {
            rows.add(fromEntry(entry));
        }
        return rows;
    }

    public Map<String, Object> fromEntry(StreamEntry entry) {
        return Map.of(
                "orderId", positive(entry, "orderId"),
                "voucherId", positive(entry, "voucherId"),
                "userId", positive(entry, "userId"),
                "createdAt", OffsetDateTime.ofInstant(Instant.ofEpochMilli(positive(entry, "acceptedAt")),
                        ZoneOffset.UTC));
    }

    /**
     * Rows once written (a batch's list, or the one row of an entry written alone): the orders as
     * {@code GET /api/orders/{orderId}} will answer them.
     */
    @SuppressWarnings("unchecked")
    public List<OrderView> written(Object rows) {
        List<Map<String, Object>> list = rows instanceof Map<?, ?> row
                ? List.of((Map<String, Object>) row) : (List<Map<String, Object>>) rows;
        List<OrderView> orders = new ArrayList<>(list.size());
        for (Map<String, Object> row : list) {
            orders.add(new OrderView(row.get("orderId").toString(), (Long) row.get("voucherId"),
                    (Long) row.get("userId"), OrderView.CREATED, ((OffsetDateTime) row.get("createdAt")).toInstant()));
        }
        return orders;
    }

    private static long positive(StreamEntry entry, String field) {
        String value = entry.fields().get(field);
        if (value == null) {
            throw new MalformedOrderException("entry " + entry.id() + " has no " + field);
        }
        try {
            long number = Long.parseLong(value);
            if (number > 0) {
                return number;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new MalformedOrderException("entry " + entry.id() + " has a bad " + field + ": '" + value + "'");
    }
}
