package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.EmbeddedRedis;
import io.seckill.deadletter.DeadLetters;
import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.ApiClient;
import io.seckill.support.InProcessService;
import io.seckill.support.LastUnitRace;
import io.seckill.support.OlderRedisCopy;
import io.seckill.support.PostgresIntegrationTest;
import io.seckill.support.Stores;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The service on PostgreSQL (profile {@code postgres}): schema created at start, every statement in the
 * PostgreSQL dialect, the order writer's batch as multi-row INSERTs, idempotent writes, the database guarding the
 * last unit against two writers, and the rebuild of a lost or outdated Redis from the database.
 */
@PostgresIntegrationTest
class PostgresIntegrationTests {

    private static final Duration DRAINED = Duration.ofSeconds(30);

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    RedisKeys keys;

    @Autowired
    DeadLetters deadLetters;

    @Autowired
    CamelContext camel;

    @Autowired
    EmbeddedRedis embedded;

    @Autowired
    OrderWriter writer;

    @Autowired
    DataSource dataSource;

    @Value("${spring.datasource.url}")
    String databaseUrl;

    @Test
    void voucherOrdersAndLookupsRunOnPostgres() {
        Instant beginAt = Instant.now().minus(1, ChronoUnit.MINUTES).truncatedTo(ChronoUnit.MILLIS);
        Instant endAt = beginAt.plus(1, ChronoUnit.DAYS);
        Answer created = api.createVoucher("{\"title\":\"On PostgreSQL\",\"stock\":20,\"beginAt\":\""
                + beginAt + "\",\"endAt\":\"" + endAt + "\"}");
        assertThat(created.status()).isEqualTo(201);
        long voucher = created.json().get("id").asLong();
        long openEnded = api.createVoucher(3); // endAt null: a typed NULL for TIMESTAMP WITH TIME ZONE

        List<String> orderIds = new ArrayList<>();
        int soldOut = 0;
        for (long buyer = 1; buyer <= 30; buyer++) {
            Answer answer = api.order(voucher, buyer);
            if (answer.status() == 202) {
                orderIds.add(answer.json().get("orderId").asText());
            } else if ("SOLD_OUT".equals(answer.code())) {
                soldOut++;
            }
        }
        assertThat(orderIds).hasSize(20);
        assertThat(soldOut).isEqualTo(10);
        assertThat(api.order(openEnded, 1).status()).isEqualTo(202);

        await().atMost(DRAINED).until(() -> stores.orderRows(voucher) == 20 && stores.orderRows(openEnded) == 1);
        Answer order = api.getOrder(orderIds.get(7), 8);
        assertThat(order.status()).isEqualTo(200);
        assertThat(order.json().get("status").asText()).isEqualTo("CREATED");
        assertThat(order.json().get("voucherId").asLong()).isEqualTo(voucher);
        assertThat(order.json().get("userId").asLong()).isEqualTo(8);
        assertThat(Instant.parse(order.json().get("createdAt").asText())).isAfterOrEqualTo(beginAt);
        assertThat(api.getOrder(Long.toString(Long.MAX_VALUE), 8).code()).isEqualTo("ORDER_NOT_FOUND");

        Answer read = api.get("/api/vouchers/" + voucher);
        assertThat(read.json().get("remaining").asLong()).isZero();
        assertThat(Instant.parse(read.json().get("beginAt").asText())).isEqualTo(beginAt);
        assertThat(Instant.parse(read.json().get("endAt").asText())).isEqualTo(endAt);
        assertThat(api.get("/api/vouchers/" + openEnded).json().has("endAt")).isTrue();
        assertThat(stores.distinctBuyers(voucher)).isEqualTo(20);
    }

    @Test
    void aBatchOfOrdersGoesInAsMultiRowInserts() throws Exception {
        long voucher = api.createVoucher(200);
        // A statement-level trigger counts INSERT statements on orders, whatever number of rows each carries.
        jdbc.execute("CREATE TABLE insert_statements (n BIGINT NOT NULL)");
        jdbc.execute("INSERT INTO insert_statements VALUES (0)");
        jdbc.execute("CREATE FUNCTION count_insert_statement() RETURNS trigger LANGUAGE plpgsql AS "
                + "$$ BEGIN UPDATE insert_statements SET n = n + 1; RETURN NULL; END $$");
        jdbc.execute("CREATE TRIGGER count_insert_statements AFTER INSERT ON orders "
                + "FOR EACH STATEMENT EXECUTE FUNCTION count_insert_statement()");
        try {
            // The writer stopped, 200 orders wait in the stream; started again, it reads them as one batch.
            camel.getRouteController().stopRoute("order-writer");
            for (long buyer = 1; buyer <= 200; buyer++) {
                assertThat(api.order(voucher, buyer).status()).isEqualTo(202);
            }
            camel.getRouteController().startRoute("order-writer");

            await().atMost(DRAINED).until(() -> stores.orderRows(voucher) == 200);
            long statements = jdbc.queryForObject("SELECT n FROM insert_statements", Long.class);
            // reWriteBatchedInserts: a handful of multi-row INSERTs, not one statement per order.
            assertThat(statements).isPositive().isLessThanOrEqualTo(10);
            assertThat(deadLetters.count()).isZero();
        } finally {
            jdbc.execute("DROP TRIGGER count_insert_statements ON orders");
            jdbc.execute("DROP FUNCTION count_insert_statement()");
            jdbc.execute("DROP TABLE insert_statements");
        }
    }

    @Test
    void theSameEntryWrittenTwiceIsOneRow() {
        long voucher = api.createVoucher(5);
        String orderId = api.order(voucher, 41).json().get("orderId").asText();
        await().atMost(DRAINED).until(() -> stores.orderRows(voucher) == 1);
        Map<String, String> entry = Map.of("orderId", orderId, "voucherId", Long.toString(voucher), "userId", "41",
                "acceptedAt", Long.toString(System.currentTimeMillis()));

        // XADD the written order again, twice (a redelivery of an entry whose acknowledgement was lost)
        String stream = keys.ordersOf(voucher);
        redis.opsForStream().add(stream, entry);
        redis.opsForStream().add(stream, entry);

        awaitDrained(stream);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE order_id = ?", Long.class,
                Long.parseLong(orderId))).isEqualTo(1);
        assertThat(stores.orderRows(voucher)).isEqualTo(1);
        assertThat(deadLetters.count()).isZero();
    }

    @Test
    void aBuyersSecondOrderUnderAnotherOrderIdIsADuplicateBuyerDeadLetter() throws Exception {
        long voucher = api.createVoucher(5);
        String first = api.order(voucher, 51).json().get("orderId").asText();
        await().atMost(DRAINED).until(() -> stores.orderRows(voucher) == 1);
        String stream = keys.ordersOf(voucher);
        long now = System.currentTimeMillis();

        // One batch: the same buyer under a new order id (the database keeps one live order per voucher and
        // buyer), and a new buyer whose order must not be held back by it.
        camel.getRouteController().stopRoute("order-writer");
        redis.opsForStream().add(stream, Map.of("orderId", "9000000000000001", "voucherId", Long.toString(voucher),
                "userId", "51", "acceptedAt", Long.toString(now)));
        redis.opsForStream().add(stream, Map.of("orderId", "9000000000000002", "voucherId", Long.toString(voucher),
                "userId", "52", "acceptedAt", Long.toString(now)));
        camel.getRouteController().startRoute("order-writer");

        awaitDrained(stream);
        assertThat(jdbc.queryForList("SELECT order_id FROM orders WHERE voucher_id = ? ORDER BY user_id",
                Long.class, voucher)).containsExactly(Long.parseLong(first), 9000000000000002L);
        DeadLetters.DeadLetter letter = deadLetters.list(10).get(0);
        assertThat(deadLetters.count()).isEqualTo(1);
        assertThat(letter.orderId()).isEqualTo("9000000000000001");
        assertThat(letter.reason()).isEqualTo("DUPLICATE_BUYER");
        assertThat(jdbc.queryForObject("SELECT sold FROM vouchers WHERE id = ?", Long.class, voucher)).isEqualTo(2);
        // The other tests of this context expect no dead letters.
        assertThat(deadLetters.discard(letter.id())).isTrue();
    }

    @Test
    void aRestartOnALostRedisRebuildsTheSaleFromPostgres() {
        long voucher = api.createVoucher(10);
        for (long buyer = 1; buyer <= 6; buyer++) {
            assertThat(api.order(voucher, buyer).status()).isEqualTo(202);
        }
        await().atMost(DRAINED).until(() -> stores.orderRows(voucher) == 6);

        // Same database, an empty Redis of its own: its start rebuilds every voucher from PostgreSQL.
        try (InProcessService restarted = InProcessService.start(new String[] {"test", "postgres"},
                Map.of("spring.datasource.url", databaseUrl))) {
            ApiClient again = restarted.api();
            assertThat(again.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(4);
            assertThat(again.order(voucher, 3).code()).isEqualTo("ALREADY_ORDERED");
            for (long buyer = 7; buyer <= 10; buyer++) {
                assertThat(again.order(voucher, buyer).status()).isEqualTo(202);
            }
            assertThat(again.order(voucher, 11).code()).isEqualTo("SOLD_OUT");
            await().atMost(DRAINED).until(() -> stores.orderRows(voucher) == 10);
        }
        assertThat(stores.distinctBuyers(voucher)).isEqualTo(10);
    }

    @Test
    void olderCopyOfRedisDataPutBackIsNoticedAndRebuiltFromPostgres() throws Exception {
        new OlderRedisCopy(api, embedded, redis, jdbc, keys).run();
    }

    @Test
    void twoWritersRacingForTheLastUnitInPostgresWriteOneOrderAndRefuseTheOther() throws Exception {
        long voucher = api.createVoucher(1);
        new LastUnitRace(writer, dataSource, "SELECT COUNT(*) FROM pg_stat_activity "
                + "WHERE datname = current_database() AND wait_event_type = 'Lock'").runOn(voucher);
    }

    /** Every entry of the stream written and acknowledged (XLEN 0: the writer deletes what it acknowledges). */
    private void awaitDrained(String stream) {
        await().atMost(DRAINED).until(() -> redis.opsForStream().size(stream) == 0
                && redis.opsForStream().pending(stream, "order-writers").getTotalPendingMessages() == 0);
    }
}
