package io.seckill.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A database of its own on the PostgreSQL server of this machine ({@code 127.0.0.1:5432}, user {@code postgres},
 * trust authentication), created for one Spring context and dropped with it, so tests never touch data they
 * did not create.
 */
public final class PostgresTestDatabase implements AutoCloseable {

    static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/";
    private static final String USER = "postgres";
    private static final String MAINTENANCE_DATABASE = "postgres";
    private static final int CONNECT_TIMEOUT_SECONDS = 3;
    private static final Pattern URL = Pattern.compile("jdbc:postgresql://[^?]*(.*)");

    private final String name;

    private PostgresTestDatabase(String name) {
        this.name = name;
    }

    /** Creates {@code seckill_test_<random>}. */
    public static PostgresTestDatabase create() {
        String name = "seckill_test_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        onServer("CREATE DATABASE " + name);
        return new PostgresTestDatabase(name);
    }

    /** @return why no PostgreSQL answers, or empty when one does */
    static Optional<String> unavailable() {
        try (Connection ignored = connect(MAINTENANCE_DATABASE)) {
            return Optional.empty();
        } catch (SQLException e) {
            return Optional.of(e.getMessage());
        }
    }

    /** This database's JDBC URL, without parameters. */
    public String url() {
        return SERVER + name;
    }

    /** This database, with the parameters of the service's URL. */
    public String in(String serviceUrl) {
        Matcher url = URL.matcher(serviceUrl);
        if (!url.matches()) {
            throw new IllegalArgumentException("Not a PostgreSQL JDBC URL: " + serviceUrl);
        }
        return url() + url.group(1);
    }

    /** Drops the database, ending whatever sessions still use it (PostgreSQL 13+). */
    @Override
    public void close() {
        onServer("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
    }

    private static void onServer(String sql) {
        try (Connection connection = connect(MAINTENANCE_DATABASE); Statement statement = connection.createStatement()) {
            statement.execute(sql);
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL at " + SERVER + " refused: " + sql, e);
        }
    }

    private static Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(SERVER + database + "?connectTimeout=" + CONNECT_TIMEOUT_SECONDS, USER,
                "");
    }
}
