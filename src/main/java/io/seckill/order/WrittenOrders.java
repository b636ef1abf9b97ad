package io.seckill.order;

import io.seckill.config.SqlStatements;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.HashSet;
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

    /** The ones among these order ids that are in the database. */
    public Set<Long> among(Collection<Long> orderIds) {
        if (orderIds.isEmpty()) {
            return Set.of();
        }
        return new HashSet<>(jdbc.sql(findWrittenOrders).param("orderIds", orderIds)
                .query((rs, row) -> rs.getLong(1)).list());
    }
}
