package io.seckill.sweeper;

import static io.seckill.support.OrderStreams.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.seckill.deadletter.DeadLetters;
import io.seckill.support.ApiClient;
import io.seckill.support.FaultInjectionTest;
import io.seckill.support.FaultyDatabase;
import io.seckill.support.OrderStreams;
import io.seckill.support.RouteStats;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.camel.CamelContext;
import org.apache.camel.component.redis.stream.StreamEntry;
import org.apache.camel.test.spring.junit5.DisableJmx;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The pending sweeper (routes/pending-sweeper.camel.yaml): entries a crashed consumer left unacknowledged are
 * claimed (XAUTOCLAIM), written and acknowledged; entries delivered more than max-deliveries (2 here) become
 * dead letters, unless their order is written already.
 */
@FaultInjectionTest
@DisableJmx(false)
class PendingSweeperIntegrationTests {

    private static final long LONG_AGO_MILLIS = 600_000;

    @Autowired
    ApiClient api;

    @Autowired
    FaultyDatabase database;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    DeadLetters deadLetters;

    @Autowired
    CamelContext camel;

    @Value("${seckill.sweeper.min-idle-millis}")
    long minIdleMillis;

    OrderStreams streams;
    JdbcTemplate db;
    long failedSweepsBefore;

    @BeforeEach
    void quietStart() {
        database.healAll();
        streams = new OrderStreams(redis);
        db = new JdbcTemplate(database.real());
        await().atMost(Duration.ofSeconds(60)).until(streams::quiet);
        streams.clearDeadLetters();
        failedSweepsBefore = failedSweeps();
    }

    /** Each sweep wrote and acknowledged what it claimed, so nothing came back to it as over-delivered. */
    @AfterEach
    void noSweepFailed() {
        assertThat(failedSweeps()).isEqualTo(failedSweepsBefore);
    }

    @Test
    void entryOfACrashedConsumerIsClaimedWrittenAndAcknowledged() {
        long orderId = nextOrderId();

        // XADD + XCLAIM: read once by a consumer that died long ago
        String id = streams.addPendingFor("crashed", 1, LONG_AGO_MILLIS, order(orderId, api.createVoucher(1), 1));

        // XAUTOCLAIM, write, XACK + XDEL
        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOfOrder(orderId) == 1 && streams.quiet());
        assertThat(streams.contains(id)).isFalse();
        assertThat(streams.deadLetterCount()).isZero();
    }

    @Test
    void entryDeliveredTooOftenBecomesOneDeadLetter() {
        long orderId = nextOrderId();

        // XADD + XCLAIM RETRYCOUNT 2: the sweeper's own claim makes it the third delivery
        String id = streams.addPendingFor("crashed", 2, LONG_AGO_MILLIS, order(orderId, api.createVoucher(1), 1));

        await().atMost(Duration.ofSeconds(30)).until(() -> streams.deadLetterCount() == 1 && streams.quiet());
        assertThat(streams.deadLetters().get(0)).containsEntry("sourceId", id)
                .containsEntry("orderId", Long.toString(orderId)).containsEntry("reason", "exceeded 2 deliveries")
                .containsEntry("deliveries", "3");
        assertThat(rowsOfOrder(orderId)).isZero();
    }

    @Test
    void entryDeliveredTooOftenWhoseOrderIsWrittenIsOnlyAcknowledged() {
        long voucher = api.createVoucher(1);
        String orderId = api.order(voucher, 1).json().get("orderId").asText();
        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOfOrder(Long.parseLong(orderId)) == 1);

        // The same order pending once more, delivered too often: its writer died between commit and XACK
        String id = streams.addPendingFor("crashed", 2, LONG_AGO_MILLIS,
                order(Long.parseLong(orderId), voucher, 1));

        await().atMost(Duration.ofSeconds(30)).until(() -> !streams.contains(id) && streams.quiet());
        assertThat(streams.deadLetterCount()).isZero();
        assertThat(rowsOfOrder(Long.parseLong(orderId))).isEqualTo(1);
    }

    @Test
    void entryDeliveredTooOftenWhoseOrderIdIsWrittenForAnotherBuyerBecomesADeadLetter() {
        long voucher = api.createVoucher(2);
        String orderId = api.order(voucher, 1).json().get("orderId").asText();
        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOfOrder(Long.parseLong(orderId)) == 1);

        // Another buyer's entry under the same orderId, delivered too often: not the written order, not done.
        String id = streams.addPendingFor("crashed", 2, LONG_AGO_MILLIS,
                order(Long.parseLong(orderId), voucher, 2));

        await().atMost(Duration.ofSeconds(30)).until(() -> streams.deadLetterCount() == 1 && streams.quiet());
        assertThat(streams.deadLetters().get(0)).containsEntry("sourceId", id).containsEntry("userId", "2")
                .containsEntry("reason", "exceeded 2 deliveries");
        assertThat(db.queryForObject("SELECT user_id FROM orders WHERE order_id = ?", Long.class,
                Long.parseLong(orderId))).isEqualTo(1);
    }

    @Test
    void entryHeldByAnotherConsumerIsNotDeadLetteredHere() {
        long orderId = nextOrderId();
        // Just read by another live instance: not idle, so no sweeper takes it yet
        String id = streams.addPendingFor("another-instance", 1, 0, order(orderId, api.createVoucher(1), 1));
        StreamEntry entry = new StreamEntry(OrderStreams.ORDERS, id, Map.of("orderId", Long.toString(orderId)));

        assertThatThrownBy(() -> deadLetters.deadLetter(entry, "failed here"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("held by another consumer");
        assertThat(streams.deadLetterCount()).isZero();
        assertThat(streams.contains(id)).isTrue();

        // Once idle long enough, the sweeper takes it over and writes it.
        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOfOrder(orderId) == 1 && streams.quiet());
    }

    @Test
    void aBatchWrittenLongerThanMinIdleIsNeverClaimedByAnySweeper() {
        long slow = nextOrderId();
        Duration writing = Duration.ofMillis(minIdleMillis * 3);
        database.delayWritesOf(slow, writing);

        // XADD: read by this instance's reader, whose write takes three times the sweepers' min-idle
        String id = streams.add(order(slow, api.createVoucher(1), 1));
        await().atMost(Duration.ofSeconds(30)).until(() -> database.writesOfDelayed(slow) == 1);

        // While it is written: still delivered once (no sweeper of this instance claimed it), and another
        // instance's sweeper finds nothing idle (XAUTOCLAIM … min-idle)
        await().during(writing.minusMillis(minIdleMillis / 2)).atMost(writing.plusMillis(minIdleMillis / 2)).until(() -> {
            List<String> taken = streams.autoClaimAs("another-instance", minIdleMillis);
            return taken.isEmpty() && streams.deliveriesOf(id) <= 1;
        });

        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOfOrder(slow) == 1 && streams.quiet());
        assertThat(database.writesOfDelayed(slow)).as("written once").isEqualTo(1);
        assertThat(streams.deadLetterCount()).isZero();
    }

    @Test
    void aClaimWrittenOneByOneAroundAMalformedEntryIsAcknowledgedAtOnce() {
        long first = nextOrderId();
        long second = nextOrderId();
        long voucher = api.createVoucher(2);
        // XADD + XCLAIM ×3: a crashed consumer's batch, with a malformed entry among valid ones
        String good1 = streams.addPendingFor("crashed", 1, LONG_AGO_MILLIS, order(first, voucher, 1));
        String bad = streams.addPendingFor("crashed", 1, LONG_AGO_MILLIS, Map.of("orderId", "x", "voucherId",
                Long.toString(voucher), "userId", "2", "acceptedAt", "1"));
        String good2 = streams.addPendingFor("crashed", 1, LONG_AGO_MILLIS, order(second, voucher, 3));

        // The sweeper claims all three; the batch fails on the malformed one and is written one by one
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(20))
                .until(() -> rowsOfOrder(first) + rowsOfOrder(second) == 2);
        // ...and the sweep acknowledges what it wrote (XACK + XDEL), rather than leave it for the next claim after
        // min-idle, a delivery more
        await().atMost(Duration.ofMillis(minIdleMillis / 2))
                .until(() -> !streams.contains(good1) && !streams.contains(good2));
        await().atMost(Duration.ofSeconds(30)).until(() -> streams.deadLetterCount() == 1 && streams.quiet());
        assertThat(streams.deadLetters().get(0)).containsEntry("sourceId", bad);
    }

    private long failedSweeps() {
        return RouteStats.failedExchanges(camel, "pending-sweeper");
    }

    private long rowsOfOrder(long orderId) {
        return db.queryForObject("SELECT COUNT(*) FROM orders WHERE order_id = ?", Long.class, orderId);
    }

    private static long nextOrderId() {
        return ThreadLocalRandom.current().nextLong(1L << 40, 1L << 62);
    }
}
