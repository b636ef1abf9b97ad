package io.seckill.order;

import java.util.ArrayList;
import java.util.List;
import org.apache.camel.component.redis.stream.StreamEntry;
import org.springframework.stereotype.Component;

/** Turns stream entries into the orders the writer inserts; an entry that is no order is malformed. */
@Component("orderRows")
public class OrderRows {

    public List<OrderRow> fromEntries(List<StreamEntry> entries) {
        List<OrderRow> rows = new ArrayList<>(entries.size());
        for (StreamEntry entry : entries) {
            rows.add(fromEntry(entry));
        }
        return rows;
    }

    public OrderRow fromEntry(StreamEntry entry) {
        // Entries accepted before payment windows existed have none: such an order never expires.
        Long payBefore = entry.fields().containsKey("payBefore") ? positive(entry, "payBefore") : null;
        return new OrderRow(positive(entry, "orderId"), positive(entry, "voucherId"), positive(entry, "userId"),
                positive(entry, "acceptedAt"), payBefore);
    }

    /** An order whose status changed after its write (paid), as the events announce it: an array of one. */
    public List<OrderView> changed(OrderView order) {
        return List.of(order);
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
