package io.seckill.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;

/**
 * An H2 file written the way the order writer writes the service's: many small transactions of a few order rows
 * each, each commit a chunk of the file of its own; and H2's own account of its file and its cache
 * ({@code INFORMATION_SCHEMA.SETTINGS}: {@code info.CHUNK_COUNT}, {@code info.CACHE_SIZE}, ...), what an operator sees.
 */
public final class H2OrderFile {

    public static final int ROWS_PER_COMMIT = 20;
    /** An order row's worth of data. */
    private static final String PAYLOAD = "x".repeat(80);

    private H2OrderFile() {
    }

    /** DATABASE with its orders table. */
    public static DataSource create(DataSource database) throws SQLException {
        try (Connection connection = database.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE IF NOT EXISTS orders (order_id BIGINT PRIMARY KEY, payload VARCHAR(100))");
        }
        return database;
    }

    /** {@code commits} transactions of {@value #ROWS_PER_COMMIT} rows each, from the {@code first}th on. */
    public static void writeOrders(DataSource database, int first, int commits) throws SQLException {
        try (Connection connection = database.getConnection();
                PreparedStatement insert = connection.prepareStatement("INSERT INTO orders VALUES (?, ?)")) {
            connection.setAutoCommit(false);
            for (int commit = first; commit < first + commits; commit++) {
                for (int row = 0; row < ROWS_PER_COMMIT; row++) {
                    insert.setLong(1, (long) commit * ROWS_PER_COMMIT + row);
                    insert.setString(2, PAYLOAD);
                    insert.addBatch();
                }
                insert.executeBatch();
                connection.commit();
            }
        }
    }

    /** H2's {@code info.NAME} of DATABASE's file. */
    public static long info(DataSource database, String name) throws SQLException {
        try (Connection connection = database.getConnection();
                PreparedStatement query = connection.prepareStatement(
                        "SELECT SETTING_VALUE FROM INFORMATION_SCHEMA.SETTINGS WHERE SETTING_NAME = ?")) {
            query.setString(1, "info." + name);
            try (ResultSet rows = query.executeQuery()) {
                assertThat(rows.next()).as("H2 reports info.%s", name).isTrue();
                return Long.parseLong(rows.getString(1));
            }
        }
    }
}
