package io.seckill.bench;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

/**
 * A voucher's orders in the database: rows by status, distinct buyers of live ones, vouchers.sold.
 *
 * <pre>statuses JDBC_URL USER VOUCHER</pre>
 */
final class OrderStatuses {

    private OrderStatuses() {
    }

    static void run(String[] args) throws Exception {
        long voucherId = Long.parseLong(args[2]);
        try (Connection connection = DriverManager.getConnection(args[0], args[1], "")) {
            for (String status : List.of("CREATED", "PAID", "CANCELLED")) {
                ResultLines.print("status_" + status, single(connection,
                        "SELECT COUNT(*) FROM orders WHERE voucher_id = ? AND status = '" + status + "'", voucherId));
            }
            ResultLines.print("live_buyers", single(connection, "SELECT COUNT(DISTINCT user_id) FROM orders"
                    + " WHERE voucher_id = ? AND status IN ('CREATED', 'PAID')", voucherId));
            ResultLines.print("sold", single(connection, "SELECT sold FROM vouchers WHERE id = ?", voucherId));
        }
    }

    private static long single(Connection connection, String sql, long voucherId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(sql)) {
            query.setLong(1, voucherId);
            try (ResultSet result = query.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }
}
