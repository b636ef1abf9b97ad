package io.seckill.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Set;

/**
 * The database after a leg, against what the run accepted: the flash crowd's rows are exactly its accepted orders
 * (one per buyer), and every voucher holds as many live rows as Redis says it sold.
 *
 * <pre>verify JDBC_URL USER FLASH_VOUCHER|- FLASH_FILE|- VOUCHER=ROWS...</pre>
 */
final class DatabaseCheck {

    private DatabaseCheck() {
    }

    static void run(String[] args) throws Exception {
        String url = args[0];
        String user = args[1];
        int mismatches = 0;
        try (Connection connection = DriverManager.getConnection(url, user, "")) {
            if (!args[2].equals("-")) {
                mismatches += flashCrowd(connection, Long.parseLong(args[2]), Path.of(args[3]));
            }
            for (int i = 4; i < args.length; i++) {
                String[] pair = args[i].split("=");
                long voucher = Long.parseLong(pair[0]);
                long expected = Long.parseLong(pair[1]);
                long found = liveRows(connection, voucher);
                ResultLines.print("verify_rows_" + voucher, found + "/" + expected);
                if (found != expected) {
                    mismatches++;
                }
            }
        }
        ResultLines.print("verify_mismatches", mismatches);
    }

    /** The flash crowd's rows are exactly its accepted orders, one per buyer; returns the mismatches. */
    private static int flashCrowd(Connection connection, long flashVoucher, Path acceptedFile) throws Exception {
        Set<String> accepted = new HashSet<>(Files.readAllLines(acceptedFile));
        accepted.removeIf(String::isBlank);
        Set<String> rows = new HashSet<>();
        Set<Long> buyers = new HashSet<>();
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT order_id, user_id FROM orders WHERE voucher_id = ?")) {
            query.setLong(1, flashVoucher);
            try (ResultSet result = query.executeQuery()) {
                while (result.next()) {
                    rows.add(result.getLong(1) + "," + result.getLong(2));
                    buyers.add(result.getLong(2));
                }
            }
        }
        Set<String> missing = new HashSet<>(accepted);
        missing.removeAll(rows);
        Set<String> unexpected = new HashSet<>(rows);
        unexpected.removeAll(accepted);
        ResultLines.print("verify_flash_rows", rows.size());
        ResultLines.print("verify_flash_buyers", buyers.size());
        ResultLines.print("verify_flash_missing", missing.size());
        ResultLines.print("verify_flash_unexpected", unexpected.size());
        return missing.size() + unexpected.size() + (rows.size() - buyers.size());
    }

    private static long liveRows(Connection connection, long voucherId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT COUNT(*) FROM orders WHERE voucher_id = ? AND status <> 'CANCELLED'")) {
            query.setLong(1, voucherId);
            try (ResultSet result = query.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }
}
