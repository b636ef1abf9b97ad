package io.seckill.warmup;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.seckill.api.WarmUpRequests;
import io.seckill.config.SqlStatements;
import io.seckill.order.OrderRows;
import io.seckill.order.OrderWriteMetrics;
import io.seckill.order.OrderWriter;
import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.Map;
import org.springframework.boot.autoconfigure.jdbc.DataSourceProperties;
import org.springframework.boot.autoconfigure.sql.init.SqlInitializationProperties;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.jdbc.support.JdbcTransactionManager;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * The order writer's half of the warm-up: the warm-up's accepted orders, read from its streams by the order writer's
 * routes ({@link WarmUpWriterRoute}), are written by an {@link OrderWriter} of their own into a schema of this instance's own in the service's database
 * ({@code seckill_warm_up_<instance>}, made from {@code sql/schema.sql}): the same tables, statements, driver,
 * connection pool and transactions as a buyer's order, none of the rows where a user or an operator looks. Without
 * it, the first 30 s of a sale compiled about 8,900 methods of that path (a third of them H2's) on the cores that
 * served the sale.
 *
 * <p>What the JIT compiles is what the warm-up's objects make it see, so they are the service's kinds, made the way
 * Spring Boot makes the service's: a Hikari pool bound to {@code spring.datasource.hikari.*}, a
 * {@link JdbcTransactionManager}, a Prometheus registry (its own, never scraped: no metric of the service's moves).
 * A warm-up on lookalikes (another transaction manager, another registry) left the first seconds of a sale
 * recompiling what they had taught the compiler, as much as with no warm-up of the writer at all.
 *
 * <p>The schema is dropped when the warm-up ends, and first thing when one begins, should a warm-up killed half-way
 * have left it.
 */
@Component("warmUpWriter")
public class WarmUpWriter {

    private static final String SCHEMA_PREFIX = "seckill_warm_up_";
    /** The warm-up's voucher has a unit for every order it may accept in the schema's INTEGER column. */
    private static final int STOCK = Integer.MAX_VALUE;

    private final JdbcTemplate jdbc;
    private final Environment environment;
    private final DataSourceProperties database;
    private final SqlInitializationProperties schemaScripts;
    private final ResourceLoader resources;
    private final OrderRows rows;
    private final SqlStatements sql;
    private final String schema;
    private final int connections;
    private volatile HikariDataSource scratch;
    private volatile PrometheusMeterRegistry registry;
    private volatile OrderWriter writer;

    WarmUpWriter(JdbcTemplate jdbc, Environment environment, DataSourceProperties database,
            SqlInitializationProperties schemaScripts, ResourceLoader resources, OrderRows rows, SqlStatements sql,
            RedisKeys keys, StreamProperties streams) {
        this.jdbc = jdbc;
        this.environment = environment;
        this.database = database;
        this.schemaScripts = schemaScripts;
        this.resources = resources;
        this.rows = rows;
        this.sql = sql;
        this.schema = SCHEMA_PREFIX + keys.instance();
        // One per reader, as the service's pool serves its readers; and one to spare.
        this.connections = streams.shards() * streams.readersPerShard() + 1;
    }

    /** The schema's name, quoted as the statements here quote it: lower case on both databases. */
    public String schema() {
        return schema;
    }

    /** Makes the schema afresh, with the warm-up's voucher, and a writer on it. */
    void open() {
        drop();
        jdbc.execute("CREATE SCHEMA " + quoted());
        HikariDataSource pool = database.initializeDataSourceBuilder().type(HikariDataSource.class).build();
        Binder.get(environment).bind("spring.datasource.hikari", Bindable.ofInstance(pool));
        pool.setPoolName("warm-up-writer");
        pool.setSchema(schema);
        pool.setMaximumPoolSize(connections);
        scratch = pool;
        ResourceDatabasePopulator tables = new ResourceDatabasePopulator();
        schemaScripts.getSchemaLocations().forEach(location -> tables.addScript(resources.getResource(location)));
        tables.execute(pool);
        Timestamp since = Timestamp.from(Instant.EPOCH);
        NamedParameterJdbcTemplate vouchers = new NamedParameterJdbcTemplate(pool);
        for (long voucher : WarmUpRequests.ACCEPTING) {
            vouchers.update(sql.get("insert-warm-up-voucher"), Map.of("id", voucher, "stock", STOCK, "beginAt", since));
        }
        registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        writer = new OrderWriter(new JdbcTemplate(pool), new TransactionTemplate(new JdbcTransactionManager(pool)),
                rows, new OrderWriteMetrics(registry), sql);
    }

    /** The writer of route {@value WarmUpWriterRoute#WRITE}, on the schema; null until {@link #open}. */
    OrderWriter orderWriter() {
        return writer;
    }

    /** Orders written since the last {@link #open}. */
    long written() {
        PrometheusMeterRegistry counted = registry;
        return counted == null ? 0 : (long) counted.get("seckill.orders.written").counter().count();
    }

    /** Closes the pool and drops the schema with every row in it. */
    void close() {
        HikariDataSource pool = scratch;
        PrometheusMeterRegistry counted = registry;
        scratch = null;
        writer = null;
        if (pool != null) {
            pool.close();
        }
        if (counted != null) {
            counted.close();
        }
        drop();
    }

    private void drop() {
        jdbc.execute("DROP SCHEMA IF EXISTS " + quoted() + " CASCADE");
    }

    /** Quoted, so H2 (which upper-cases a plain name) and PostgreSQL (which lower-cases it) both keep it as is. */
    private String quoted() {
        return '"' + schema + '"';
    }
}
