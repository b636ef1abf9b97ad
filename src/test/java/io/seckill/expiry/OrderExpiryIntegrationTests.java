package io.seckill.expiry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.ApiClient;
import io.seckill.support.EventSubscriber;
import io.seckill.support.FlashCrowd.Order;
import io.seckill.support.FlashCrowd.Outcome;
import io.seckill.support.FlashCrowd;
import io.seckill.support.Invariants;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import io.seckill.voucher.RedisStateCheck;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.component.redis.stream.StreamEntry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * The life of an order after its 202, through HTTP with a payment window of 2 s: paid in time, paid too late,
 * never paid (its unit sold again), paid by someone else, paid before it is written, and payments racing the
 * expiry. Afterwards the contract's invariant holds with the new states: live rows + stream + dead letters =
 * stock − remaining, so every cancelled order gave its unit back exactly once.
 */
@SeckillIntegrationTest
@TestPropertySource(properties = {
    "seckill.order.payment-timeout=2s",
    "seckill.order.expiry.period-millis=200",
    "seckill.order.expiry.not-written-delay=500ms",
    "seckill.order.expiry.max-overdue-age=3s"
})
class OrderExpiryIntegrationTests {

    private static final Duration WINDOW = Duration.ofSeconds(2);
    private static final Duration SETTLED = Duration.ofSeconds(30);
    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    RedisKeys keys;

    @Autowired
    CamelContext camel;

    @Autowired
    PopDueOrdersScript popDue;

    @Autowired
    OrderExpiry expiry;

    @Autowired
    ProducerTemplate routes;

    @Autowired
    ReturnUnitScript returnUnit;

    @Autowired
    RedisStateCheck redisState;

    @Autowired
    LettuceConnectionFactory redisConnection;

    @Value("${seckill.events.channel}")
    String channel;

    @Test
    void orderPaidInTimeStaysPaidAndKeepsItsUnit() {
        long voucher = api.createVoucher(1);
        String orderId = written(voucher, 1);
        Answer created = api.getOrder(orderId, 1);
        assertThat(created.json().get("status").asText()).isEqualTo("CREATED");
        Instant payBefore = Instant.parse(created.json().get("payBefore").asText());
        assertThat(payBefore).isBetween(Instant.now().minus(WINDOW), Instant.now().plus(WINDOW));

        Answer paid = api.pay(orderId, 1);

        assertThat(paid.status()).isEqualTo(200);
        assertThat(paid.json().get("status").asText()).isEqualTo("PAID");
        assertThat(paid.json().get("orderId").asText()).isEqualTo(orderId);
        assertThat(paid.json().has("payBefore")).as("no window once paid").isFalse();
        // Idempotent: paying again answers the paid order again.
        Answer again = api.pay(orderId, 1);
        assertThat(again.status()).isEqualTo(200);
        assertThat(again.json()).isEqualTo(paid.json());
        // Long after its window it is still paid, and its unit stays sold.
        awaitPast(payBefore.plusSeconds(1));
        assertThat(status(orderId, 1)).isEqualTo("PAID");
        assertThat(api.order(voucher, 2).code()).isEqualTo("SOLD_OUT");
        assertThat(invariants().assertHold(voucher, 1).remaining()).isZero();
        assertThat(redis.opsForZSet().score(dueKey(voucher), RedisKeys.unpaidOrder(Long.parseLong(orderId), 1)))
                .as("a paid order is no longer due (ZSCORE)").isNull();
    }

    @Test
    void unpaidOrderIsCancelledItsUnitGoesBackAndAnotherBuyerBuysIt() {
        long voucher = api.createVoucher(1);
        String orderId = written(voucher, 1);
        assertThat(api.order(voucher, 2).code()).isEqualTo("SOLD_OUT");

        awaitStatus(orderId, 1, "CANCELLED");

        Answer late = api.pay(orderId, 1);
        assertThat(late.status()).isEqualTo(409);
        assertThat(late.code()).isEqualTo("PAYMENT_EXPIRED");
        assertThat(late.header("Content-Type")).startsWith("application/problem+json");
        assertThat(status(orderId, 1)).isEqualTo("CANCELLED");
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(1);
        // The returned unit is on sale: another buyer gets it.
        String second = written(voucher, 2);
        assertThat(api.pay(second, 2).status()).isEqualTo(200);
        Invariants.Ledger ledger = invariants().assertHold(voucher, 1);
        assertThat(ledger.cancelledRows()).isEqualTo(1);
        assertThat(ledger.rows()).isEqualTo(1);
    }

    @Test
    void theSameBuyerCanBuyTheReturnedUnitAgain() {
        long voucher = api.createVoucher(1);
        String first = written(voucher, 7);
        awaitStatus(first, 7, "CANCELLED");

        String second = written(voucher, 7);

        assertThat(second).isNotEqualTo(first);
        assertThat(api.pay(second, 7).json().get("status").asText()).isEqualTo("PAID");
        assertThat(api.order(voucher, 7).code()).as("one live order per buyer").isEqualTo("ALREADY_ORDERED");
        assertThat(jdbc.queryForList("SELECT status FROM orders WHERE voucher_id = ? ORDER BY order_id",
                String.class, voucher)).containsExactly("CANCELLED", "PAID");
        invariants().assertHold(voucher, 1);
    }

    @Test
    void anotherBuyersOrderIsNotFoundAndStaysUnpaid() {
        long voucher = api.createVoucher(1);
        String orderId = written(voucher, 1);
        Stores.Snapshot before = stores.snapshot();

        Answer stranger = api.pay(orderId, 2);

        assertThat(stranger.status()).isEqualTo(404);
        assertThat(stranger.code()).isEqualTo("ORDER_NOT_FOUND");
        assertThat(stores.snapshot().orders()).isEqualTo(before.orders());
        assertThat(api.pay("987654321", 1).code()).as("an unknown order").isEqualTo("ORDER_NOT_FOUND");
    }

    @Test
    void malformedPaymentsAreBadRequestsAndChangeNothing() {
        long voucher = api.createVoucher(1);
        String orderId = written(voucher, 1);
        Stores.Snapshot before = stores.snapshot();

        for (Answer answer : List.of(api.pay("abc", "1"), api.pay("0", "1"), api.pay(orderId, (String) null),
                api.pay(orderId, "0"), api.pay(orderId, "-1"), api.pay(orderId, "x"))) {
            assertThat(answer.status()).as(answer.body()).isEqualTo(400);
            assertThat(answer.code()).isEqualTo("BAD_REQUEST");
        }
        assertThat(stores.snapshot().orders()).isEqualTo(before.orders());
        assertThat(status(orderId, 1)).isEqualTo("CREATED");
    }

    @Test
    void anOrderNotWrittenYetCannotBePaidYetAndIsNotCancelledBlindly() throws Exception {
        long voucher = api.createVoucher(1);
        camel.getRouteController().stopRoute("order-writer");
        String orderId;
        try {
            orderId = api.orderAccepted(voucher, 1).get(0);

            Answer early = api.pay(orderId, 1);
            assertThat(early.status()).isEqualTo(409);
            assertThat(early.code()).isEqualTo("NOT_CREATED_YET");
            assertThat(early.header("Retry-After")).isEqualTo("1");
            // Another buyer learns nothing of it.
            assertThat(api.pay(orderId, 2).code()).isEqualTo("ORDER_NOT_FOUND");

            // Past its window, unwritten: put back for later, its unit still taken.
            String member = RedisKeys.unpaidOrder(Long.parseLong(orderId), 1);
            long acceptedAt = System.currentTimeMillis();
            await().atMost(SETTLED).until(() -> {
                Double due = redis.opsForZSet().score(dueKey(voucher), member); // ZSCORE
                return due != null && due > acceptedAt + WINDOW.toMillis();
            });
            assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isZero();
        } finally {
            camel.getRouteController().startRoute("order-writer");
        }
        // Once written it expires like any other.
        awaitStatus(orderId, 1, "CANCELLED");
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(1);
        invariants().assertHold(voucher, 1);
    }

    @Test
    void paymentsRacingTheExpiryEndEachOrderExactlyOneWay() throws Exception {
        int stock = 40;
        long voucher = api.createVoucher(stock);
        // Each buyer pays around the end of the window, from 600 ms before to 400 ms after (counted from just
        // before the order was sent, so a little earlier than payBefore), while the expiry takes due orders every
        // 200 ms.
        ScheduledExecutorService payers = Executors.newScheduledThreadPool(8);
        Map<String, Future<Answer>> payments = new HashMap<>();
        List<String> orderIds = new ArrayList<>();
        try {
            for (int i = 0; i < stock; i++) {
                long buyer = i + 1;
                long sentAt = System.currentTimeMillis();
                String orderId = api.orderAccepted(voucher, buyer).get(0);
                orderIds.add(orderId);
                long at = sentAt + WINDOW.toMillis() - 600 + 1000L * i / stock - System.currentTimeMillis();
                payments.put(orderId, payers.schedule(() -> payOnceWritten(orderId, buyer), Math.max(0, at),
                        TimeUnit.MILLISECONDS));
            }
            int paid = 0;
            int expired = 0;
            for (int i = 0; i < stock; i++) {
                String orderId = orderIds.get(i);
                Answer payment = payments.get(orderId).get(60, TimeUnit.SECONDS);
                long buyer = i + 1;
                awaitSettled(orderId, buyer);
                String status = status(orderId, buyer);
                if (payment.status() == 200) {
                    assertThat(status).as("order %s answered 200", orderId).isEqualTo("PAID");
                    paid++;
                } else {
                    assertThat(payment.code()).as("order %s: %s", orderId, payment.body()).isEqualTo("PAYMENT_EXPIRED");
                    assertThat(status).as("order %s answered 409", orderId).isEqualTo("CANCELLED");
                    expired++;
                }
            }
            assertThat(paid).as("payments in time").isPositive();
            assertThat(expired).as("payments too late").isPositive();
            awaitExpiryQuiet(voucher);
            Invariants.Ledger ledger = invariants().assertHold(voucher, stock);
            assertThat(ledger.remaining()).as("one unit back per cancelled order").isEqualTo(expired);
            assertThat(ledger.rows()).isEqualTo(paid);
        } finally {
            payers.shutdownNow();
        }
    }

    @Test
    void flashCrowdWhereHalfTheWinnersNeverPayResellsTheirUnits() throws Exception {
        int stock = 20;
        long voucher = api.createVoucher(stock);

        // First crowd: buyers 1..60 for 20 units; the winners with an even id pay, the others never do.
        List<Outcome> first = FlashCrowd.send(crowd(voucher, 1, 60), 8, api);
        List<Outcome> winners = first.stream().filter(Outcome::accepted).toList();
        assertThat(winners).hasSize(stock);
        Set<Long> paidFirst = payEvenBuyers(winners);
        int paid = paidFirst.size();
        await().atMost(SETTLED).until(() -> api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()
                == stock - paid);

        // Second crowd, every earlier buyer among them: the freed units go, to anyone but a buyer with a live order.
        List<Outcome> second = FlashCrowd.send(crowd(voucher, 1, 120), 8, api);
        List<Outcome> secondWinners = second.stream().filter(Outcome::accepted).toList();
        // At least the freed units; more when a second-crowd winner's own window ran out during the crowd.
        assertThat(secondWinners).hasSizeGreaterThanOrEqualTo(stock - paid);
        assertThat(secondWinners).as("no buyer who paid wins again")
                .noneMatch(o -> paidFirst.contains(o.order().userId()));
        int paidLater = payEvenBuyers(secondWinners).size();
        await().atMost(SETTLED).until(() -> jdbc.queryForObject(
                "SELECT COUNT(*) FROM orders WHERE voucher_id = ? AND status = 'CREATED'", Long.class, voucher) == 0);
        awaitExpiryQuiet(voucher);

        Invariants.Ledger ledger = invariants().assertHold(voucher, stock);
        assertThat(ledger.rows()).as("PAID rows").isEqualTo(paid + paidLater).isLessThanOrEqualTo(stock);
        assertThat(ledger.remaining()).isEqualTo(stock - paid - paidLater);
        assertThat(ledger.cancelledRows()).as("every unpaid winner cancelled")
                .isEqualTo(winners.size() + secondWinners.size() - paid - paidLater);
    }

    @Test
    void anOrderCancelledByAnInstanceThatDiedBeforeReturningItsUnitGetsItBackOnce() throws Exception {
        long voucher = api.createVoucher(1);
        String orderId = written(voucher, 1);
        String member = RedisKeys.unpaidOrder(Long.parseLong(orderId), 1);
        String stream = keys.ordersOf(voucher);
        double returnedBefore = api.prometheus().value("seckill_orders_units_returned_total");
        double cancelledBefore = api.prometheus().value("seckill_orders_cancelled_total");
        camel.getRouteController().stopRoute("order-expiry");
        try {
            // What an instance killed between its commit and returnUnit-3.lua leaves: the row CANCELLED, the unit
            // still taken, the order leased in "cancelling" with the lease run out.
            redis.opsForZSet().remove(keys.dueOrdersOf(stream), member);
            redis.opsForZSet().add(keys.cancellingOrdersOf(stream), member, System.currentTimeMillis() - 1);
            // (the cancellation's one transaction: the row and the voucher's sold count)
            jdbc.update("UPDATE orders SET status = 'CANCELLED', live_buyer_id = NULL WHERE order_id = ?",
                    Long.parseLong(orderId));
            jdbc.update("UPDATE vouchers SET sold = sold - 1 WHERE id = ?", voucher);
        } finally {
            camel.getRouteController().startRoute("order-expiry");
        }

        await().atMost(SETTLED).until(() -> redis.opsForZSet().zCard(keys.cancellingOrdersOf(stream)) == 0);
        awaitExpiryQuiet(voucher);

        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(1);
        assertThat(redis.opsForSet().isMember(keys.buyers(voucher), "1")).isFalse();
        assertThat(api.prometheus().value("seckill_orders_units_returned_total")).isEqualTo(returnedBefore + 1);
        assertThat(api.prometheus().value("seckill_orders_cancelled_total")).as("cancelled by the dead instance")
                .isEqualTo(cancelledBefore);
        invariants().assertHold(voucher, 1);
    }

    @Test
    void aRedeliveredEntryDoesNotReviveACancelledOrder() {
        long voucher = api.createVoucher(1);
        String orderId = written(voucher, 1);
        awaitStatus(orderId, 1, "CANCELLED");
        // The entry as the admission wrote it, delivered once more (a writer that crashed before XACK).
        long now = System.currentTimeMillis();
        StreamEntry again = new StreamEntry(keys.ordersOf(voucher), "1-0", Map.of("orderId", orderId,
                "voucherId", Long.toString(voucher), "userId", "1", "acceptedAt", Long.toString(now - 5000),
                "payBefore", Long.toString(now - 3000)));

        camel.createProducerTemplate().sendBody("direct:write-orders", List.of(again));

        assertThat(status(orderId, 1)).isEqualTo("CANCELLED");
        invariants().assertHold(voucher, 1);
    }

    @Test
    void paymentsAndCancellationsAreAnnouncedAndCounted() throws Exception {
        long voucher = api.createVoucher(2);
        String paidOrder = written(voucher, 1);
        String unpaidOrder = written(voucher, 2);
        double paidBefore = api.prometheus().value("seckill_orders_paid_total");
        try (EventSubscriber messages = new EventSubscriber(redisConnection, channel)) {
            Answer paid = api.pay(paidOrder, 1);
            api.pay(paidOrder, 1);

            Map<String, List<JsonNode>> events = new HashMap<>();
            await().atMost(SETTLED).until(() -> {
                collect(messages, events);
                return events.containsKey(paidOrder) && events.containsKey(unpaidOrder);
            });
            assertThat(events.get(paidOrder)).as("one event for the payment, none for paying again")
                    .containsExactly(paid.json());
            assertThat(events.get(unpaidOrder)).singleElement()
                    .isEqualTo(api.getOrder(unpaidOrder, 2).json())
                    .satisfies(event -> assertThat(event.get("status").asText()).isEqualTo("CANCELLED"));
        }
        assertThat(api.prometheus().value("seckill_orders_paid_total")).isEqualTo(paidBefore + 1);
    }

    @Test
    void readinessGoesDownWhileUnpaidOrdersAreNotCancelled() throws Exception {
        awaitReady(200);
        camel.getRouteController().stopRoute("order-expiry");
        try {
            long voucher = api.createVoucher(1);
            written(voucher, 1);

            // Past its window + max-overdue-age, with nobody cancelling it. (The stopped route alone makes
            // readiness 503 through Camel's route check; orderExpiry says why the units stay off sale.)
            await().atMost(SETTLED).until(() -> api.asOperator().get("/actuator/health/readiness").json()
                    .at("/components/orderExpiry/status").asText().equals("DOWN"));
            assertThat(api.get("/actuator/health/readiness").status()).isEqualTo(503);
            assertThat(api.prometheus().value("seckill_orders_overdue_oldest_age_seconds")).isGreaterThan(3);
        } finally {
            camel.getRouteController().startRoute("order-expiry");
        }
        Answer ready = awaitReady(200);
        assertThat(ready.json().at("/components/orderExpiry/status").asText()).isEqualTo("UP");
    }

    @Test
    void aRebuildSchedulesUnpaidOrdersAgain() throws Exception {
        long voucher = api.createVoucher(2);
        String orderId = written(voucher, 1);
        String due = dueKey(voucher);
        String writtenMember = RedisKeys.unpaidOrder(Long.parseLong(orderId), 1);
        camel.getRouteController().stopRoute("order-writer");
        String queued;
        try {
            queued = api.orderAccepted(voucher, 2).get(0);
            String queuedMember = RedisKeys.unpaidOrder(Long.parseLong(queued), 2);
            Double payBefore = redis.opsForZSet().score(due, writtenMember);
            Double queuedPayBefore = redis.opsForZSet().score(due, queuedMember);
            // A Redis that lost the schedule (UNLINK due).
            redis.unlink(due);

            rebuildAfterRedisForgot(voucher);

            assertThat(redis.opsForZSet().score(due, writtenMember)).as("a CREATED row").isEqualTo(payBefore);
            assertThat(redis.opsForZSet().score(due, queuedMember)).as("an order still in the stream")
                    .isEqualTo(queuedPayBefore);
        } finally {
            camel.getRouteController().startRoute("order-writer");
        }
        awaitStatus(orderId, 1, "CANCELLED");
        awaitStatus(queued, 2, "CANCELLED");
        invariants().assertHold(voucher, 2);
    }

    @Test
    void aRebuildWhileAnOrderIsBeingCancelledReturnsItsUnitOnce() throws Exception {
        long voucher = api.createVoucher(1);
        String orderId = written(voucher, 1);
        String member = RedisKeys.unpaidOrder(Long.parseLong(orderId), 1);
        camel.getRouteController().stopRoute("order-expiry");
        try {
            awaitDue(voucher, member);
            // Another instance takes the order under its lease (popDueOrders-2.lua) and stalls.
            assertThat(popDue.pop(dueKey(voucher), cancellingKey(voucher), Duration.ofMinutes(1), 10))
                    .containsExactly(member);
            // Meanwhile Redis forgets the voucher's hash and this instance rebuilds it.
            rebuildAfterRedisForgot(voucher);
            // The other instance wakes up and finishes: the row, then the unit.
            assertThat(cancelRow(voucher, member).row().status()).isEqualTo("CANCELLED");
            assertThat(returnUnit.returnUnit(voucher, member, 1, keys.ordersOf(voucher))).isEqualTo(ReturnUnitScript.Outcome.RETURNED);
        } finally {
            camel.getRouteController().startRoute("order-expiry");
        }
        awaitExpiryQuiet(voucher);

        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong())
                .as("the one unit back on sale once").isEqualTo(1);
        invariants().assertHold(voucher, 1);
    }

    @Test
    void aRebuildBetweenTheCancellationAndTheUnitsReturnCountsTheUnitOnce() throws Exception {
        long voucher = api.createVoucher(1);
        String orderId = written(voucher, 1);
        String member = RedisKeys.unpaidOrder(Long.parseLong(orderId), 1);
        camel.getRouteController().stopRoute("order-expiry");
        try {
            awaitDue(voucher, member);
            // Another instance takes the order, cancels its row and stalls before returnUnit-3.lua.
            assertThat(popDue.pop(dueKey(voucher), cancellingKey(voucher), Duration.ofMinutes(1), 10))
                    .containsExactly(member);
            assertThat(cancelRow(voucher, member).row().status()).isEqualTo("CANCELLED");
            // Redis forgets the voucher's hash and this instance rebuilds it: the unit is still out.
            rebuildAfterRedisForgot(voucher);
            assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isZero();
            assertThat(api.order(voucher, 2).code()).isEqualTo("SOLD_OUT");
            // The other instance wakes up and returns the unit.
            assertThat(returnUnit.returnUnit(voucher, member, 1, keys.ordersOf(voucher))).isEqualTo(ReturnUnitScript.Outcome.RETURNED);
        } finally {
            camel.getRouteController().startRoute("order-expiry");
        }
        awaitExpiryQuiet(voucher);

        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(1);
        assertThat(redis.opsForSet().isMember(keys.buyers(voucher), "1")).isFalse();
        invariants().assertHold(voucher, 1);
    }

    @Test
    void aDueOrderWhoseRowIsAnotherBuyersDoesNotCancelThatRow() throws Exception {
        long voucher = api.createVoucher(2);
        camel.getRouteController().stopRoute("order-expiry");
        String orderId = written(voucher, 1);
        String own = RedisKeys.unpaidOrder(Long.parseLong(orderId), 1);
        String forged = RedisKeys.unpaidOrder(Long.parseLong(orderId), 2);
        // ZADD due: buyer 1's own order due in an hour, and the same orderId for buyer 2, due now.
        Double ownPayBefore = redis.opsForZSet().score(dueKey(voucher), own);
        assertThat(ownPayBefore).isNotNull();
        redis.opsForZSet().add(dueKey(voucher), own, System.currentTimeMillis() + 3_600_000);
        redis.opsForZSet().add(dueKey(voucher), forged, System.currentTimeMillis() - 1);
        camel.getRouteController().startRoute("order-expiry");
        try {
            // Taken (out of the due set while its row is looked up) and put back for later: no row of buyer 2's
            // order is written.
            await().atMost(SETTLED).until(() -> {
                Double due = redis.opsForZSet().score(dueKey(voucher), forged);
                return due != null && due > System.currentTimeMillis();
            });
            assertThat(api.getOrder(orderId, 1).json().get("status").asText()).isEqualTo("CREATED");
        } finally {
            redis.opsForZSet().remove(dueKey(voucher), forged);
            redis.opsForZSet().remove(cancellingKey(voucher), forged);
            redis.opsForZSet().add(dueKey(voucher), own, ownPayBefore);
        }
        awaitStatus(orderId, 1, "CANCELLED");
    }

    /** Until the order is past its window and due (ZRANGEBYSCORE due -inf now). */
    private void awaitDue(long voucher, String member) {
        await().atMost(SETTLED).until(() -> redis.opsForZSet()
                .rangeByScore(dueKey(voucher), Double.NEGATIVE_INFINITY, System.currentTimeMillis())
                .contains(member));
    }

    /** DEL voucher: the state check finds the hash gone and rebuilds it from the database and the streams. */
    private void rebuildAfterRedisForgot(long voucher) {
        redis.delete(keys.voucher(voucher));
        redisState.check();
        assertThat(redis.opsForHash().entries(keys.voucher(voucher))).containsKey("stock")
                .doesNotContainKey("rebuilding");
    }

    private String cancellingKey(long voucher) {
        return keys.cancellingOrdersOf(keys.ordersOf(voucher));
    }

    private Answer awaitReady(int status) {
        Answer[] last = new Answer[1];
        await().atMost(SETTLED).until(() -> {
            last[0] = api.asOperator().get("/actuator/health/readiness");
            return last[0].status() == status;
        });
        return last[0];
    }

    private static void collect(EventSubscriber messages, Map<String, List<JsonNode>> events)
            throws Exception {
        List<String> arrived = new ArrayList<>();
        messages.drainTo(arrived);
        for (String message : arrived) {
            for (JsonNode event : JSON.readTree(message)) {
                events.computeIfAbsent(event.path("orderId").asText(), id -> new ArrayList<>()).add(event);
            }
        }
    }

    private static List<Order> crowd(long voucher, long firstBuyer, long lastBuyer) {
        List<Order> orders = new ArrayList<>();
        for (long buyer = firstBuyer; buyer <= lastBuyer; buyer++) {
            orders.add(new Order(voucher, buyer));
        }
        return orders;
    }

    /**
     * The winners with an even buyer id pay, all at once; on a busy machine some may be too late, and those count
     * as unpaid. Answers the buyers who paid.
     */
    private Set<Long> payEvenBuyers(List<Outcome> winners) throws Exception {
        ExecutorService payers = Executors.newFixedThreadPool(8);
        try {
            Map<Long, Future<Answer>> answers = new HashMap<>();
            for (Outcome winner : winners) {
                if (winner.order().userId() % 2 == 0) {
                    answers.put(winner.order().userId(),
                            payers.submit(() -> payOnceWritten(winner.orderId(), winner.order().userId())));
                }
            }
            Set<Long> paid = new HashSet<>();
            for (Map.Entry<Long, Future<Answer>> answer : answers.entrySet()) {
                Answer payment = answer.getValue().get(60, TimeUnit.SECONDS);
                if (payment.status() == 200) {
                    paid.add(answer.getKey());
                } else {
                    assertThat(payment.code()).as(payment.body()).isEqualTo("PAYMENT_EXPIRED");
                }
            }
            return paid;
        } finally {
            payers.shutdownNow();
        }
    }

    /** Pays, again after Retry-After while the order is not written yet (409 NOT_CREATED_YET). */
    private Answer payOnceWritten(String orderId, long buyer) {
        Answer[] last = new Answer[1];
        await().atMost(SETTLED).pollInterval(Duration.ofMillis(100)).until(() -> {
            last[0] = api.pay(orderId, buyer);
            return !"NOT_CREATED_YET".equals(last[0].code());
        });
        return last[0];
    }

    /** Until the order is PAID or CANCELLED. */
    private void awaitSettled(String orderId, long buyer) {
        await().atMost(SETTLED).until(() -> !"CREATED".equals(status(orderId, buyer)));
    }

    private String written(long voucher, long buyer) {
        String orderId = api.orderAccepted(voucher, buyer).get(0);
        await().atMost(SETTLED).until(() -> api.getOrder(orderId, buyer).status() == 200);
        return orderId;
    }

    private void awaitStatus(String orderId, long buyer, String status) {
        await().atMost(SETTLED).until(() -> status.equals(status(orderId, buyer)));
    }

    /** The order's status as its buyer reads it. */
    private String status(String orderId, long buyer) {
        return api.getOrder(orderId, buyer).json().path("status").asText();
    }

    /** Until the clock is past the instant (and a few expiry rounds more). */
    private static void awaitPast(Instant instant) {
        await().atMost(SETTLED).pollDelay(Duration.ofMillis(100))
                .until(() -> Instant.now().isAfter(instant.plusMillis(600)));
    }

    /** Nothing of the voucher's shard left due or being cancelled (ZCARD). */
    private void awaitExpiryQuiet(long voucher) {
        String stream = keys.ordersOf(voucher);
        await().atMost(SETTLED).until(() -> redis.opsForZSet().zCard(keys.dueOrdersOf(stream)) == 0
                && redis.opsForZSet().zCard(keys.cancellingOrdersOf(stream)) == 0);
    }

    private String dueKey(long voucher) {
        return keys.dueOrdersOf(keys.ordersOf(voucher));
    }

    private Invariants invariants() {
        return new Invariants(redis, jdbc, keys);
    }

    /** The database's half of a cancellation, as the expiry route runs it (routes/order-expiry.camel.yaml). */
    private DueOrder cancelRow(long voucher, String member) {
        DueOrder due = expiry.findRow(new DueOrder(member, keys.ordersOf(voucher), null, false));
        return routes.requestBody("direct:cancel-unpaid-order", due, DueOrder.class);
    }
}
