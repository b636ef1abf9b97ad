package io.seckill.order;

import io.seckill.config.SqlStatements;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import javax.sql.DataSource;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;

/** What the database says about orders already written, for code that must not write or give up twice. */
@Component
public class WrittenOrders {

    private static final int CHECK_TIMEOUT_SECONDS = 2;

    private final DataSource dataSource;
    private final JdbcClient jdbc;
    private final String findWrittenOrders;

    public WrittenOrders(DataSource dataSource, JdbcClient jdbc, SqlStatements sql) {
        this.dataSource = dataSource;
        this.jdbc = jdbc;
        this.findWrittenOrders = sql.get("find-written-orders");
    }

    /** Whether the database answers at all (a connection that passes its validity check). */
    public boolean reachable() {
        try (Connection connection = dataSource.getConnection()) {
            return connection.isValid(CHECK_TIMEOUT_SECONDS);
        } catch (SQLException e) {
            return false;
        }
    }

    /** An order as a stream entry names it. */
    public record Order(long orderId, long voucherId, long userId) {}

    /**
     * The orderIds of those among these orders that the database holds as they are: the same orderId for the same
     * voucher and buyer. An orderId written for another voucher or buyer is another order, not this one written.
     */
    public Set<Long> among(Collection<Order> orders) {
        if (orders.isEmpty()) {
            return Set.of();
        }
        Set<Order> asked = new HashSet<>(orders);
        List<Long> orderIds = orders.stream().map(Order::orderId).toList();
        return new HashSet<>(jdbc.sql(findWrittenOrders).param("orderIds", orderIds)
                .query((rs, row) -> new Order(rs.getLong("order_id"), rs.getLong("voucher_id"),
                        rs.getLong("user_id")))
                .list().stream().filter(asked::contains).map(Order::orderId).toList());
    }
}
