package io.seckill.order;

import io.seckill.api.ApiException;
import io.seckill.api.ProblemCode;
import io.seckill.api.RequestIds;
import io.seckill.config.SqlStatements;
import java.time.OffsetDateTime;
import java.util.Optional;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** Finds a written order; one still in the stream is not found yet. */
@Component("orderLookup")
public class OrderLookup {

    private final JdbcClient jdbc;
    private final RequestIds requestIds;
    private final String findOrder;

    public OrderLookup(JdbcClient jdbc, RequestIds requestIds, SqlStatements sql) {
        this.jdbc = jdbc;
        this.requestIds = requestIds;
        this.findOrder = sql.get("find-order");
    }

    public OrderView find(String orderIdText) {
        long orderId = requestIds.positive(orderIdText, "orderId");
        return byId(orderId).orElseThrow(() -> new ApiException(ProblemCode.ORDER_NOT_FOUND,
                "Order " + orderId + " is not in the database (yet)"));
    }

    public Optional<OrderView> byId(long orderId) {
        return jdbc.sql(findOrder).param("orderId", orderId)
                .query((rs, row) -> {
                    OffsetDateTime payBefore = rs.getObject("pay_before", OffsetDateTime.class);
                    return new OrderView(
                            Long.toString(rs.getLong("order_id")),
                            rs.getLong("voucher_id"),
                            rs.getLong("user_id"),
                            rs.getString("status"),
                            rs.getObject("created_at", OffsetDateTime.class).toInstant(),
                            payBefore == null ? null : payBefore.toInstant());
                })
                .optional();
    }
}
