package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.FaultInjectionTest;
import io.seckill.support.FaultyDatabase;
import io.seckill.support.OrderStreams;
import java.time.Duration;
import java.util.List;
import org.apache.camel.test.spring.junit5.DisableJmx;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A database outage: the intake needs only Redis, so it keeps taking orders and stays ready; reads of orders fail
 * fast with 503; nothing becomes a dead letter, whatever the outage looks like (connections refused after the
 * pool's timeout, or connections that validate while every write fails); everything is written once it is over.
 */
@FaultInjectionTest
@DisableJmx(false)
class DatabaseOutageIntegrationTests {

    @Autowired
    ApiClient api;

    @Autowired
    FaultyDatabase database;

    @Autowired
    StringRedisTemplate redis;

    @Value("${spring.datasource.hikari.connection-timeout}")
    long connectionTimeoutMillis;

    @Value("${seckill.sweeper.min-idle-millis}")
    long minIdleMillis;

    @Value("${seckill.sweeper.max-deliveries}")
    int maxDeliveries;

    OrderStreams streams;
    JdbcTemplate db;

    @BeforeEach
    void quietStart() {
        database.healAll();
        streams = new OrderStreams(redis);
        db = new JdbcTemplate(database.real());
        await().atMost(Duration.ofSeconds(60)).until(streams::quiet);
        streams.clearDeadLetters();
    }

    @Test
    void duringAnOutageOrdersAreTakenReadinessStaysUpAndReadsFailFastWith503() {
        long voucher = api.createVoucher(5);
        database.goDown();

        List<String> accepted = api.orderAccepted(voucher, 1, 2, 3);
        assertThat(accepted).hasSize(3);

        Answer readiness = api.get("/actuator/health/readiness");
        assertThat(readiness.status()).as(readiness.body()).isEqualTo(200);
        assertThat(readiness.json().get("status").asText()).isEqualTo("UP");

        // Each lookup would wait for the pool's connection timeout; only the first may.
        long started = System.nanoTime();
        int lookups = 5;
        for (int i = 0; i < lookups; i++) {
            // Buyers 1, 2 and 3, each reading their own.
            Answer read = api.getOrder(accepted.get(i % accepted.size()), i % accepted.size() + 1);
            assertThat(read.status()).as(read.body()).isEqualTo(503);
            assertThat(read.header("Content-Type")).startsWith("application/problem+json");
            assertThat(read.code()).isEqualTo("DATABASE_UNAVAILABLE");
            assertThat(read.json().get("status").asInt()).isEqualTo(503);
            assertThat(read.json().get("detail").asText()).isNotBlank();
            assertThat(Long.parseLong(read.header("Retry-After"))).isPositive();
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);
        assertThat(took).as("%d lookups during the outage", lookups)
                .isLessThan(Duration.ofMillis(connectionTimeoutMillis * 2 + 1000));

        database.comeBack();

        await().atMost(Duration.ofSeconds(60)).until(() -> rowsOf(voucher) == 3 && streams.quiet());
        assertThat(streams.deadLetterCount()).isZero();
        await().atMost(Duration.ofSeconds(30))
                .until(() -> api.getOrder(accepted.get(0), 1).status() == 200);
    }

    @Test
    void writesFailingOnValidConnectionsLongerThanTheSweeperWaitsLeaveNoDeadLetters() {
        long voucher = api.createVoucher(10);
        // A read-only standby after a failover (SQLSTATE 25006): connections validate, every write fails.
        database.failWritesWith("25006", "cannot execute INSERT in a read-only transaction");

        List<String> accepted = api.orderAccepted(voucher, 1, 2, 3, 4, 5);
        assertThat(accepted).hasSize(5);
        await().atMost(Duration.ofSeconds(30)).until(() -> database.refusedWrites() > 0);

        // Longer than min-idle × max-deliveries: a sweeper counting each claim would dead-letter every order.
        Duration held = Duration.ofMillis(minIdleMillis * (maxDeliveries + 2));
        await().during(held).atMost(held.plusSeconds(10)).until(
                () -> streams.deadLetterCount() == 0 && rowsOf(voucher) == 0 && streams.length() == 5);
        assertThat(streams.pending()).isEqualTo(5);

        database.healAll();

        await().atMost(Duration.ofSeconds(60)).until(() -> rowsOf(voucher) == 5 && streams.quiet());
        assertThat(streams.deadLetterCount()).isZero();
        assertThat(db.queryForList("SELECT CAST(order_id AS VARCHAR) FROM orders WHERE voucher_id = ?", String.class,
                voucher)).containsExactlyInAnyOrderElementsOf(accepted);
    }

    private long rowsOf(long voucher) {
        return db.queryForObject("SELECT COUNT(*) FROM orders WHERE voucher_id = ?", Long.class, voucher);
    }
}
