package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.support.PostgresTestDatabase;
import io.seckill.support.RequiresPostgres;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.autoconfigure.sql.init.SqlInitializationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * Instances started together (a deployment that starts them all at once) each run {@code sql/schema.sql} at the same
 * moment on a fresh database. Every statement is IF NOT EXISTS, yet two sessions creating the same object at once
 * collide (H2: "object already exists"; PostgreSQL: a duplicate key in its catalogue), and the instance that lost
 * failed to start (seen in MultiInstanceCrashIntegrationTests). Here several initializers, each with its own
 * connection, start on one fresh database at once, over and over: every one must succeed and the schema be whole.
 */
class ConcurrentSchemaInitializationIntegrationTests {

    private static final int INSTANCES = 6;
    private static final int ROUNDS = 10;

    @Test
    void instancesStartingTogetherOnAFreshH2DatabaseAllInitializeIt() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            String url = "jdbc:h2:mem:schema-race-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
            startTogether(new DriverManagerDataSource(url, "sa", ""));
        }
    }

    @Test
    @ExtendWith(RequiresPostgres.class)
    void instancesStartingTogetherOnAFreshPostgresDatabaseAllInitializeIt() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            try (PostgresTestDatabase database = PostgresTestDatabase.create()) {
                startTogether(new DriverManagerDataSource(database.url(), "postgres", ""));
            }
        }
    }

    private static void startTogether(DataSource database) throws Exception {
        SqlInitializationProperties properties = new SqlInitializationProperties();
        properties.setMode(DatabaseInitializationMode.ALWAYS);
        properties.setSchemaLocations(List.of("classpath:sql/schema.sql"));
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService instances = Executors.newFixedThreadPool(INSTANCES);
        try {
            List<Future<Boolean>> initialized = new ArrayList<>();
            for (int instance = 0; instance < INSTANCES; instance++) {
                initialized.add(instances.submit(() -> {
                    start.await();
                    return new DatabaseSchemaConfiguration().schemaInitializer(database, properties)
                            .initializeDatabase();
                }));
            }
            start.countDown();
            for (Future<Boolean> each : initialized) {
                assertThat(each.get(60, TimeUnit.SECONDS)).isTrue();
            }
        } finally {
            instances.shutdownNow();
        }
        assertThat(indexes(database)).contains("orders_one_live_per_buyer");
    }

    /** The unique indexes of table orders, lower case, from the driver's own metadata (the same on both). */
    private static List<String> indexes(DataSource database) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Connection connection = database.getConnection()) {
            DatabaseMetaData metadata = connection.getMetaData();
            String table = metadata.storesUpperCaseIdentifiers() ? "ORDERS" : "orders";
            try (ResultSet rows = metadata.getIndexInfo(null, null, table, true, false)) {
                while (rows.next()) {
                    names.add(String.valueOf(rows.getString("INDEX_NAME")).toLowerCase(Locale.ROOT));
                }
            }
        }
        return names;
    }
}
