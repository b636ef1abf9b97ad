package io.seckill.order;

import io.seckill.stream.StreamEntry;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
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
        Map<String, Object> row = new HashMap<>();
        row.put("orderId", positive(entry, "orderId"));
        row.put("voucherId", positive(entry, "voucherId"));
        row.put("userId", positive(entry, "userId"));
        row.put("createdAt", utc(positive(entry, "acceptedAt")));
        // Entries accepted before payment windows existed have none: such an order never expires.
        row.put("payBefore", entry.fields().containsKey("payBefore") ? utc(positive(entry, "payBefore")) : null);
        return row;
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
            OffsetDateTime payBefore = (OffsetDateTime) row.get("payBefore");
            orders.add(new OrderView(row.get("orderId").toString(), (Long) row.get("voucherId"),
                    (Long) row.get("userId"), OrderView.CREATED, ((OffsetDateTime) row.get("createdAt")).toInstant(),
                    payBefore == null ? null : payBefore.toInstant()));
        }
        return orders;
    }

    /** An order whose status changed after its write (paid), as the events announce it: an array of one. */
    public List<OrderView> changed(OrderView order) {
        return List.of(order);
    }

    private static OffsetDateTime utc(long epochMillis) {
        return OffsetDateTime.ofInstant(Instant.ofEpochMilli(epochMillis), ZoneOffset.UTC);
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
