package io.seckill.support;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A database of its own on the PostgreSQL server of this machine ({@code 127.0.0.1:5432}, user {@code postgres},
 * trust authentication), created for one Spring context and dropped with it, so tests never touch data they
 * did not create. Roles made for it ({@link #createRole}) are dropped with it too.
 */
public final class PostgresTestDatabase implements AutoCloseable {

    static final String SERVER = "jdbc:postgresql://127.0.0.1:5432/";
    private static final String USER = "postgres";
    private static final String MAINTENANCE_DATABASE = "postgres";
    private static final int CONNECT_TIMEOUT_SECONDS = 3;
    private static final Pattern URL = Pattern.compile("jdbc:postgresql://[^?]*(.*)");

    private final String name;
    private final List<String> roles = new CopyOnWriteArrayList<>();

    private PostgresTestDatabase(String name) {
        this.name = name;
    }

    /** Creates {@code seckill_test_<random>}. */
    public static PostgresTestDatabase create() {
        String name = randomName("seckill_test_");
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

    /** This database's name. */
    public String name() {
        return name;
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

    /**
     * Creates a role {@code <prefix><random>} with LOGIN and nothing else, dropped when this database is: a role is
     * the server's, not a database's, so dropping the database alone would leave it behind.
     *
     * @return the role's name
     */
    public String createRole(String prefix) {
        String role = randomName(prefix);
        onServer("CREATE ROLE " + role + " LOGIN");
        roles.add(role);
        return role;
    }

    /** Runs the statements in this database as the superuser, in order, as a DBA's set-up would. */
    public void execute(String... statements) {
        run(name, statements);
    }

    /**
     * Drops the database, ending whatever sessions still use it (PostgreSQL 13+), then its roles: after it, as a role
     * that owns objects or holds privileges in a database cannot be dropped. Each drop is tried even when one before
     * it failed.
     */
    @Override
    public void close() {
        List<String> drops = new ArrayList<>();
        drops.add("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
        roles.forEach(role -> drops.add("DROP ROLE IF EXISTS " + role));
        IllegalStateException failed = null;
        for (String drop : drops) {
            try {
                onServer(drop);
            } catch (IllegalStateException e) {
                if (failed == null) {
                    failed = e;
                } else {
                    failed.addSuppressed(e);
                }
            }
        }
        if (failed != null) {
            throw failed;
        }
    }

    private static String randomName(String prefix) {
        return prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    private static void onServer(String sql) {
        run(MAINTENANCE_DATABASE, sql);
    }

    private static void run(String database, String... statements) {
        try (Connection connection = connect(database); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                try {
                    statement.execute(sql);
                } catch (SQLException e) {
                    throw new IllegalStateException("PostgreSQL at " + SERVER + database + " refused: " + sql, e);
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException("PostgreSQL at " + SERVER + database + " refused a connection", e);
        }
    }

    private static Connection connect(String database) throws SQLException {
        return DriverManager.getConnection(SERVER + database + "?connectTimeout=" + CONNECT_TIMEOUT_SECONDS, USER,
                "");
    }
}
