package io.seckill.order;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * The text of one order event message: a JSON array of orders, each as {@code GET /api/orders/{orderId}} shows it.
 * Written straight to a String with the application's ObjectMapper: Camel's {@code marshal: json} went through a
 * cached output stream and a reader back to a String, and at 500 orders a batch that was the writer's largest
 * allocation (more than the database's).
 */
@Component("orderEventMessages")
public class OrderEventMessages {

    private final ObjectMapper json;

    public OrderEventMessages(ObjectMapper json) {
        this.json = json;
    }

    /** Whether there is anything to announce: a write of entries written before inserted nothing. */
    public boolean any(List<OrderView> orders) {
        return !orders.isEmpty();
    }

    public String of(List<OrderView> orders) throws JsonProcessingException {
        return json.writeValueAsString(orders);
    }
}
