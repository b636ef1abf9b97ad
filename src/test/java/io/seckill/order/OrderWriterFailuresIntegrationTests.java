package io.seckill.order;

import static io.seckill.support.OrderStreams.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.FaultInjectionTest;
import io.seckill.support.FaultyDatabase;
import io.seckill.support.OrderStreams;
import io.seckill.support.Redeliveries;
import io.seckill.support.RouteStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.NotifyBuilder;
import org.apache.camel.test.spring.junit5.DisableJmx;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * How the order writer sorts failures (routes/error-handling.camel.yaml): a malformed entry is dead-lettered at
 * once, an order the database refuses (OVERSOLD, DUPLICATE_BUYER, ORDER_ID_CONFLICT) is dead-lettered with that
 * reason, an outage is retried and then left pending for the sweeper (never dead
 * letters), and any other failure is retried and then dead-lettered, without taking its batch-mates along.
 */
@FaultInjectionTest
@DisableJmx(false)
class OrderWriterFailuresIntegrationTests {

    @Autowired
    ApiClient api;

    @Autowired
    FaultyDatabase database;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    CamelContext camel;

    @Autowired
    Redeliveries redeliveries;

    @Value("${seckill.writer.maximum-redeliveries}")
    int maximumRedeliveries;

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
    void poisonEntryBecomesOneDeadLetterAtOnceAndTheWriterGoesOn() {
        long rowsBefore = rows();
        long redeliveriesBefore = redeliveries.count();

        // XADD seckill:{s0}:orders * orderId not-a-number …
        String poison = streams.add(Map.of("orderId", "not-a-number", "voucherId", "1", "userId", "7",
                "acceptedAt", "1"));

        await().atMost(Duration.ofSeconds(30)).until(() -> streams.deadLetterCount() == 1);
        Map<String, String> letter = streams.deadLetters().get(0);
        assertThat(letter).containsEntry("orderId", "not-a-number").containsEntry("voucherId", "1")
                .containsEntry("userId", "7").containsEntry("acceptedAt", "1").containsEntry("sourceId", poison)
                .containsEntry("deliveries", "1")
                .containsEntry("reason", "entry " + poison + " has a bad orderId: 'not-a-number'");
        assertThat(Long.parseLong(letter.get("failedAt"))).isPositive();
        // XPENDING and XRANGE: acknowledged and gone from the orders stream
        await().atMost(Duration.ofSeconds(10)).until(streams::quiet);
        assertThat(streams.contains(poison)).isFalse();
        assertThat(rows()).isEqualTo(rowsBefore);
        assertThat(redeliveries.count()).as("no retries").isEqualTo(redeliveriesBefore);

        long voucher = api.createVoucher(1);
        assertThat(api.order(voucher, 1).status()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOf(voucher) == 1);
        assertThat(streams.deadLetterCount()).isEqualTo(1);
    }

    @Test
    void malformedEntryDoesNotTakeItsBatchMatesAlong() {
        long voucher = api.createVoucher(3);
        Map<String, String> noBuyer = order(nextOrderId(), voucher, 1);
        noBuyer.remove("userId");

        // MULTI, XADD ×3, EXEC: one batch
        List<String> ids = streams.addTogether(List.of(order(nextOrderId(), voucher, 2), noBuyer,
                order(nextOrderId(), voucher, 3)));

        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOf(voucher) == 2 && streams.quiet());
        assertThat(streams.deadLetters()).singleElement().satisfies(letter -> assertThat(letter)
                .containsEntry("sourceId", ids.get(1)).containsEntry("reason", "entry " + ids.get(1) + " has no userId"));
    }

    @Test
    void secondOrderOfABuyerUnderAnotherOrderIdIsADuplicateBuyerDeadLetterAndTakesNoUnit() {
        long voucher = api.createVoucher(3);
        assertThat(api.order(voucher, 5).status()).isEqualTo(202);
        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOf(voucher) == 1 && streams.quiet());

        long redeliveriesBefore = redeliveries.count();
        long twinOrderId = nextOrderId();

        // XADD: another order of the same buyer for the same voucher (what a Redis that forgot the buyer admits)
        String twin = streams.add(order(twinOrderId, voucher, 5));

        await().atMost(Duration.ofSeconds(30)).until(() -> streams.deadLetterCount() == 1 && streams.quiet());
        assertThat(streams.deadLetters().get(0)).containsEntry("sourceId", twin)
                .containsEntry("orderId", Long.toString(twinOrderId)).containsEntry("userId", "5")
                .containsEntry("reason", "DUPLICATE_BUYER");
        assertThat(rowsOf(voucher)).isEqualTo(1);
        assertThat(soldOf(voucher)).as("the refused order took no unit").isEqualTo(1);
        assertThat(redeliveries.count()).as("no retries").isEqualTo(redeliveriesBefore);
    }

    @Test
    void orderWrittenBeforeAmongNewEntriesIsNotWrittenTwiceAndItsBatchMatesAreWritten() {
        long voucher = api.createVoucher(3);
        String written = api.order(voucher, 4).json().get("orderId").asText();
        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOf(voucher) == 1 && streams.quiet());
        long redeliveriesBefore = redeliveries.count();

        // MULTI, XADD ×3, EXEC: one batch of new entries (skips the lookup of written orders), one of them the
        // written order again, as a dead letter replayed after its order was written appends it
        long first = nextOrderId();
        long last = nextOrderId();
        streams.addTogether(List.of(order(first, voucher, 5), order(Long.parseLong(written), voucher, 4),
                order(last, voucher, 6)));

        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOf(voucher) == 3 && streams.quiet());
        assertThat(db.queryForList("SELECT order_id FROM orders WHERE voucher_id = ?", Long.class, voucher))
                .containsExactlyInAnyOrder(Long.parseLong(written), first, last);
        assertThat(soldOf(voucher)).as("units taken once per order").isEqualTo(3);
        assertThat(streams.deadLetterCount()).isZero();
        assertThat(redeliveries.count()).as("no retries").isEqualTo(redeliveriesBefore);
    }

    @Test
    void ordersBeyondTheStockInTheDatabaseAreOversoldDeadLettersAndTheirBatchMatesAreWritten() {
        long voucher = api.createVoucher(2);
        long other = api.createVoucher(5);
        List<Long> orderIds = List.of(nextOrderId(), nextOrderId(), nextOrderId(), nextOrderId());

        // MULTI, XADD ×4, EXEC: one batch holding three orders of a voucher with two units (what a Redis that
        // forgot its sales admits), and one of another voucher
        List<String> ids = streams.addTogether(List.of(order(orderIds.get(0), voucher, 1),
                order(orderIds.get(1), other, 1), order(orderIds.get(2), voucher, 2), order(orderIds.get(3), voucher, 3)));

        await().atMost(Duration.ofSeconds(30)).until(() -> streams.deadLetterCount() == 1 && streams.quiet());
        assertThat(streams.deadLetters().get(0)).containsEntry("sourceId", ids.get(3))
                .containsEntry("orderId", Long.toString(orderIds.get(3))).containsEntry("reason", "OVERSOLD");
        assertThat(db.queryForList("SELECT order_id FROM orders WHERE voucher_id IN (?, ?)", Long.class, voucher,
                other)).containsExactlyInAnyOrder(orderIds.get(0), orderIds.get(1), orderIds.get(2));
        assertThat(soldOf(voucher)).isEqualTo(2);
        assertThat(soldOf(other)).isEqualTo(1);
    }

    @Test
    void orderIdWrittenForAnotherBuyerIsAnOrderIdConflictDeadLetterNeverAnOverwrite() {
        long voucher = api.createVoucher(3);
        String orderId = api.order(voucher, 6).json().get("orderId").asText();
        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOf(voucher) == 1 && streams.quiet());

        // XADD: the same orderId for another buyer
        streams.add(order(Long.parseLong(orderId), voucher, 7));

        await().atMost(Duration.ofSeconds(30)).until(() -> streams.deadLetterCount() == 1 && streams.quiet());
        assertThat(streams.deadLetters().get(0)).containsEntry("reason", "ORDER_ID_CONFLICT");
        assertThat(db.queryForObject("SELECT user_id FROM orders WHERE order_id = ?", Long.class,
                Long.parseLong(orderId))).isEqualTo(6);
    }

    @Test
    void outageIsRetriedThenLeftPendingAndWrittenOnceAfterRecoveryWithoutDeadLetters() {
        long voucher = api.createVoucher(20);
        database.goDown();
        List<String> accepted = new ArrayList<>();
        for (int buyer = 1; buyer <= 20; buyer++) {
            ApiClient.Answer answer = api.order(voucher, buyer);
            assertThat(answer.status()).isEqualTo(202);
            accepted.add(answer.json().get("orderId").asText());
        }

        // Retried with back-off: at least 1 + maximumRedeliveries attempts on the first batch.
        await().atMost(Duration.ofSeconds(30)).until(() -> database.refusedConnections() > maximumRedeliveries);
        // Longer than min-idle × (max-deliveries + 1): a sweeper that claimed during the outage would dead-letter.
        await().during(Duration.ofSeconds(8)).atMost(Duration.ofSeconds(12)).until(
                () -> streams.deadLetterCount() == 0 && rowsOf(voucher) == 0 && streams.length() == 20);
        assertThat(streams.pending()).isEqualTo(20);

        long failedSweeps = RouteStats.failedExchanges(camel, "pending-sweeper");

        database.comeBack();

        await().atMost(Duration.ofSeconds(60)).until(() -> rowsOf(voucher) == 20 && streams.quiet());
        assertThat(streams.deadLetterCount()).isZero();
        assertThat(RouteStats.failedExchanges(camel, "pending-sweeper")).as("sweeps wrote and acknowledged")
                .isEqualTo(failedSweeps);
        assertThat(db.queryForList("SELECT CAST(order_id AS VARCHAR) FROM orders WHERE voucher_id = ?", String.class,
                voucher)).containsExactlyInAnyOrderElementsOf(accepted);
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isZero();
    }

    @Test
    void entryThatCanNeverBeWrittenIsDeadLetteredAfterItsRetriesAndItsBatchMatesAreWritten() {
        long voucher = api.createVoucher(3);
        long doomed = nextOrderId();
        database.failWritesOf(doomed);
        long redeliveriesBefore = redeliveries.count();

        // MULTI, XADD ×3, EXEC: one batch
        List<String> ids = streams.addTogether(List.of(order(nextOrderId(), voucher, 1), order(doomed, voucher, 2),
                order(nextOrderId(), voucher, 3)));

        await().atMost(Duration.ofSeconds(30)).until(() -> streams.deadLetterCount() == 1 && streams.quiet());
        assertThat(rowsOf(voucher)).isEqualTo(2);
        assertThat(streams.deadLetters().get(0)).containsEntry("sourceId", ids.get(1))
                .containsEntry("orderId", Long.toString(doomed)).containsEntry("deliveries", "1")
                .hasEntrySatisfying("reason", reason -> assertThat(reason)
                        .contains("injected failure writing order " + doomed));
        assertThat(database.batchWritesOf(doomed)).as("the batch, once").isEqualTo(1);
        assertThat(database.singleWritesOf(doomed)).as("alone, 1 + maximum redeliveries")
                .isEqualTo(1 + maximumRedeliveries);
        assertThat(redeliveries.count() - redeliveriesBefore).isEqualTo(maximumRedeliveries);
    }

    @Test
    void outageMetWhileWritingOneByOneLeavesTheWholeBatchPending() {
        long voucher = api.createVoucher(3);
        long unlucky = nextOrderId();
        database.loseConnectionWritingAlone(unlucky);
        NotifyBuilder batchFailed = new NotifyBuilder(camel).fromRoute("order-writer").whenFailed(1).create();

        // MULTI, XADD ×3, EXEC: one batch; it fails whole, then the second entry alone meets an outage
        List<String> ids = streams.addTogether(List.of(order(nextOrderId(), voucher, 1), order(unlucky, voucher, 2),
                order(nextOrderId(), voucher, 3)));

        assertThat(batchFailed.matches(30, TimeUnit.SECONDS)).isTrue();
        assertThat(database.singleWritesOf(unlucky)).isEqualTo(1 + maximumRedeliveries);
        // XPENDING: the batch is not acknowledged, nothing was dead-lettered
        assertThat(streams.pending()).isEqualTo(3);
        assertThat(ids).allMatch(streams::contains);
        assertThat(streams.deadLetterCount()).isZero();

        database.healAll();

        // XAUTOCLAIM by the sweeper, then written and acknowledged
        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOf(voucher) == 3 && streams.quiet());
        assertThat(streams.deadLetterCount()).isZero();
    }

    @Test
    void entryTakenOverByAnotherInstanceWhileRetriedFailsItsBatchInsteadOfBeingAcknowledged() {
        long voucher = api.createVoucher(3);
        long contested = nextOrderId();
        database.failWritesOf(contested);
        // Another instance's sweeper claims the entry while this one retries it (XCLAIM … JUSTID).
        database.whenWriteFails(contested, () -> streams.handOver(streams.idOf(contested), "another-instance"));
        NotifyBuilder batchFailed = new NotifyBuilder(camel).fromRoute("order-writer").whenFailed(1).create();

        // MULTI, XADD ×3, EXEC: one batch
        List<String> ids = streams.addTogether(List.of(order(nextOrderId(), voucher, 1), order(contested, voucher, 2),
                order(nextOrderId(), voucher, 3)));

        // The dead letter cannot be moved (deadLetterHandleNewException false): the batch fails, nothing is acked.
        assertThat(batchFailed.matches(30, TimeUnit.SECONDS)).isTrue();
        assertThat(streams.deadLetterCount()).isZero();
        assertThat(streams.holderOf(ids.get(1))).isEqualTo("another-instance");
        assertThat(streams.holderOf(ids.get(0))).isEqualTo("test");
        assertThat(streams.holderOf(ids.get(2))).isEqualTo("test");

        database.healAll();

        // XAUTOCLAIM by the sweeper, written, acknowledged
        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOf(voucher) == 3 && streams.quiet());
        assertThat(streams.deadLetterCount()).isZero();
    }

    private long rows() {
        return db.queryForObject("SELECT COUNT(*) FROM orders", Long.class);
    }

    private long rowsOf(long voucher) {
        return db.queryForObject("SELECT COUNT(*) FROM orders WHERE voucher_id = ?", Long.class, voucher);
    }

    private long soldOf(long voucher) {
        return db.queryForObject("SELECT sold FROM vouchers WHERE id = ?", Long.class, voucher);
    }

    private static long nextOrderId() {
        return ThreadLocalRandom.current().nextLong(1L << 40, 1L << 62);
    }
}
