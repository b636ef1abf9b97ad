package io.seckill.voucher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.EmbeddedRedis;
import io.seckill.order.OrderWriter;
import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.ApiClient;
import io.seckill.support.Invariants;
import io.seckill.support.LastUnitRace;
import io.seckill.support.OlderRedisCopy;
import io.seckill.support.SeckillIntegrationTest;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * Redis forgets, the service heals (H2): a flush while it runs, an older copy of Redis's data put back, a buyer
 * removed from the buyers set by hand, a rebuild left half-done; and the database guarding the last unit against
 * two writers. A context of its own: these tests flush and restart its Redis.
 */
@SeckillIntegrationTest
@DirtiesContext
@TestPropertySource(properties = {
        "seckill.redis.state-check.check-period=1s",
        "seckill.redis.state-check.stale-mark-after=2s",
        // Long enough for the race's writers to wait out the transaction that holds the voucher's row.
        "spring.datasource.url=jdbc:h2:mem:${random.uuid};DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=30000"})
class RedisForgetsIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Autowired
    ApiClient api;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    RedisKeys keys;

    @Autowired
    EmbeddedRedis embedded;

    @Autowired
    OrderWriter writer;

    @Autowired
    DataSource dataSource;

    @Autowired
    VoucherRepository repository;

    @Test
    void flushedWhileRunningTheServiceRebuildsFromTheDatabaseAndGoesOnWithoutOverselling() {
        long voucher = api.createVoucher(10);
        api.orderAccepted(voucher, 1, 2, 3, 4);
        await().atMost(DEADLINE).until(() -> rows(voucher) == 4 && quiet(voucher));

        // FLUSHALL: every key gone, the consumer group and the marker too
        redis.execute((RedisCallback<Object>) connection -> {
            connection.serverCommands().flushAll();
            return null;
        });

        // Until the check rebuilt it, the voucher answers 503 with Retry-After, never 404 or a wrong answer.
        List<String> answers = new ArrayList<>();
        await().atMost(DEADLINE).until(() -> {
            Answer answer = api.order(voucher, 5);
            if (answer.status() == 503) {
                assertThat(answer.code()).isEqualTo("VOUCHER_REBUILDING");
                assertThat(answer.header("Retry-After")).isEqualTo("1");
            }
            answers.add(answer.status() + " " + answer.code());
            return answer.status() == 202;
        });
        assertThat(answers.subList(0, answers.size() - 1)).allMatch(answer -> answer.startsWith("503"));

        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(5);
        for (long buyer = 1; buyer <= 5; buyer++) {
            assertThat(api.order(voucher, buyer).code()).as("buyer %d", buyer).isEqualTo("ALREADY_ORDERED");
        }
        api.orderAccepted(voucher, 6, 7, 8, 9, 10);
        assertThat(api.order(voucher, 11).code()).isEqualTo("SOLD_OUT");
        // The writer re-creates the consumer group the flush took and goes on.
        await().atMost(DEADLINE).until(() -> rows(voucher) == 10 && quiet(voucher));
        Invariants.Ledger ledger = invariants().assertHold(voucher, 10);
        assertThat(ledger.deadLetters()).isZero();
    }

    @Test
    void olderCopyOfRedisDataPutBackIsNoticedAndRebuiltBeforeAnythingIsOversold() throws Exception {
        new OlderRedisCopy(api, embedded, redis, jdbc, keys).run();
    }

    @Test
    void buyerRemovedFromTheBuyersSetByHandWhoOrdersAgainIsADuplicateBuyerDeadLetterAndTheLedgerBalances() {
        long voucher = api.createVoucher(5);
        api.orderAccepted(voucher, 1, 2, 3);
        await().atMost(DEADLINE).until(() -> rows(voucher) == 3 && quiet(voucher));

        // SREM buyers 2: Redis forgets one buyer, not the unit
        redis.opsForSet().remove(keys.buyers(voucher), "2");
        String again = api.orderAccepted(voucher, 2).get(0);

        await().atMost(DEADLINE).until(() -> deadLetters(voucher).size() == 1 && quiet(voucher));
        assertThat(deadLetters(voucher).get(0)).containsEntry("orderId", again).containsEntry("userId", "2")
                .containsEntry("reason", "DUPLICATE_BUYER");
        assertThat(rows(voucher)).isEqualTo(3);
        Invariants.Ledger ledger = invariants().assertHold(voucher, 5);
        assertThat(ledger.remaining()).isEqualTo(1);
        assertThat(api.asOperator().get("/actuator/prometheus").body())
                .contains("seckill_dead_letters_added_total{reason=\"DUPLICATE_BUYER\"} 1.0");
    }

    @Test
    void aVoucherEndedLongerAgoThanItsOrdersCanBeCancelledIsNoLongerSurveyed() {
        Instant now = Instant.now();
        long onSale = api.createVoucher(5);
        // In the database only, as vouchers whose hashes Redis has since lost. The grace after the end is
        // seckill.order.payment-timeout (15 min) + max-overdue-age (2 min).
        long endedLately = repository.insert(new VoucherRequest("ended lately", 5, now.minus(Duration.ofHours(1)),
                now.minus(Duration.ofMinutes(1)))).id();
        long endedLongAgo = repository.insert(new VoucherRequest("ended long ago", 5, now.minus(Duration.ofDays(2)),
                now.minus(Duration.ofDays(1)))).id();
        // DEL voucher: after the ended ones are in the database, so the check that rebuilds it saw them too
        redis.delete(keys.voucher(onSale));

        // Rebuilt: the stock is back and the rebuild's mark gone (a hash holding only the mark is a rebuild under way).
        await().atMost(DEADLINE).until(() -> rebuilt(onSale) && rebuilt(endedLately));
        assertThat(redis.opsForHash().get(keys.voucher(endedLately), "stock")).isEqualTo("5");
        assertThat(redis.hasKey(keys.voucher(endedLongAgo))).isFalse(); // EXISTS
    }

    @Test
    void voucherBeingRebuiltAnswers503WithRetryAfterAndChangesNothing() {
        long voucher = api.createVoucher(3);
        String token = "another-instance@" + System.currentTimeMillis();
        // HSET voucher rebuilding <token>: another instance is rebuilding it
        redis.opsForHash().put(keys.voucher(voucher), "rebuilding", token);

        Answer answer = api.order(voucher, 1);

        assertThat(answer.status()).isEqualTo(503);
        assertThat(answer.code()).isEqualTo("VOUCHER_REBUILDING");
        assertThat(answer.header("Retry-After")).isEqualTo("1");
        assertThat(redis.opsForHash().get(keys.voucher(voucher), "stock")).isEqualTo("3");
        assertThat(redis.opsForSet().size(keys.buyers(voucher))).isZero();
        assertThat(redis.opsForStream().size(keys.ordersOf(voucher))).isZero();

        // Its rebuild never finishes: once the mark is stale, this instance takes over and the sale goes on.
        await().atMost(DEADLINE).until(() -> api.order(voucher, 1).status() == 202);
        assertThat(redis.opsForHash().entries(keys.voucher(voucher))).doesNotContainKey("rebuilding")
                .containsEntry("stock", "2");
    }

    @Test
    void twoWritersRacingForTheLastUnitInTheDatabaseWriteOneOrderAndRefuseTheOther() throws Exception {
        long voucher = api.createVoucher(1);
        new LastUnitRace(writer, dataSource,
                "SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS WHERE BLOCKER_ID IS NOT NULL").runOn(voucher);
    }

    private Invariants invariants() {
        return new Invariants(redis, jdbc, keys);
    }

    private long rows(long voucher) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE voucher_id = ?", Long.class, voucher);
    }

    /** HMGET voucher stock rebuilding: its figures are back and no rebuild is under way. */
    private boolean rebuilt(long voucher) {
        List<Object> state = redis.opsForHash().multiGet(keys.voucher(voucher), List.of("stock", "rebuilding"));
        return state.get(0) != null && state.get(1) == null;
    }

    /** XLEN 0: every order written and acknowledged (the writer deletes what it acknowledges). */
    private boolean quiet(long voucher) {
        Long length = redis.opsForStream().size(keys.ordersOf(voucher));
        return length != null && length == 0;
    }

    private List<Map<Object, Object>> deadLetters(long voucher) {
        // XRANGE seckill:{sN}:orders:dead - +
        return redis.opsForStream().range(keys.deadLettersOf(keys.ordersOf(voucher)),
                org.springframework.data.domain.Range.unbounded()).stream()
                .map(record -> record.getValue())
                .filter(fields -> Long.toString(voucher).equals(fields.get("voucherId")))
                .toList();
    }
}
