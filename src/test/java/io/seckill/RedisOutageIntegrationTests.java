package io.seckill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.EmbeddedRedis;
import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.ApiClient;
import io.seckill.support.Invariants;
import io.seckill.support.OrderStreams;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * The embedded Redis goes away under a running service: stopped (requests are answered 503 at once and take
 * nothing), and killed with SIGKILL while a crowd orders (the service starts it again on the same data and
 * ordering goes on, losing and doubling nothing). A context of its own: these tests stop and kill its Redis. The
 * rate limits are on (too high to refuse anyone): their buckets, in Redis too, are the first thing an order meets.
 */
@SeckillIntegrationTest
@TestPropertySource(properties = {"seckill.rate-limit.per-buyer.rate=1000", "seckill.rate-limit.per-buyer.burst=1000",
    "seckill.rate-limit.per-address.rate=100000", "seckill.rate-limit.per-address.burst=100000"})
@DirtiesContext
class RedisOutageIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    /** Well under a second: answered at once, not after the 5 s command timeout. */
    private static final Duration AT_ONCE = Duration.ofMillis(800);

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    EmbeddedRedis redis;

    @Autowired
    RedisKeys keys;

    @Test
    void whileRedisIsDownEveryRequestNeedingItIsAnswered503AtOnceAndTakesNothing() {
        long voucher = api.createVoucher(5);
        api.orderAccepted(voucher, 1);
        double refusedBefore = api.prometheus().value("seckill_redis_unavailable_total");
        double ordersRefusedBefore = redisUnavailableOrders();

        redis.close();
        try {
            await().atMost(DEADLINE).until(() -> api.get("/actuator/health/readiness").status() == 503);
            for (long buyer = 2; buyer <= 4; buyer++) {
                long started = System.nanoTime();
                Answer answer = api.order(voucher, buyer);
                assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(AT_ONCE);
                assertRedisUnavailable(answer);
                assertThat(answer.json().get("detail").asText()).contains("nothing was done");
            }
            // GET /api/vouchers/{id} reads the live stock from Redis.
            assertRedisUnavailable(api.get("/api/vouchers/" + voucher));
            assertRedisUnavailable(api.createVoucher("{\"title\":\"During the outage\",\"stock\":3}"));
            assertThat(api.prometheus().value("seckill_redis_unavailable_total")).isEqualTo(refusedBefore + 5);
            assertThat(redisUnavailableOrders()).isEqualTo(ordersRefusedBefore + 3);
            // A restart of the service would not bring Redis back.
            assertThat(api.get("/actuator/health/liveness").status()).isEqualTo(200);
        } finally {
            redis.restart();
        }

        // The client reconnects by itself; the 503s took no unit and no buyer: 5 - buyer 1 - buyer 2.
        await().atMost(DEADLINE).until(() -> api.order(voucher, 2).status() == 202);
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(3);
        await().atMost(DEADLINE).until(() -> stores.orderRows(voucher) == 2);
        assertThat(api.get("/actuator/health/readiness").status()).isEqualTo(200);
    }

    @Test
    void aKilledRedisServerIsStartedAgainOnItsDataWhileACrowdOrders() throws Exception {
        int stock = 100_000;
        long voucher = api.createVoucher(stock);
        long pid = redisPid();
        int restartsBefore = redis.restarts();

        // Buyers 1, 2, 3, … order one after the other on 16 threads until told to stop.
        AtomicLong nextBuyer = new AtomicLong(1);
        AtomicBoolean ordering = new AtomicBoolean(true);
        List<Timed> outcomes = Collections.synchronizedList(new ArrayList<>());
        AtomicInteger acceptedSoFar = new AtomicInteger();
        List<Throwable> unanswered = Collections.synchronizedList(new ArrayList<>());
        ExecutorService crowd = Executors.newFixedThreadPool(16);
        try {
            for (int thread = 0; thread < 16; thread++) {
                crowd.submit(() -> {
                    while (ordering.get()) {
                        long buyer = nextBuyer.getAndIncrement();
                        long started = System.nanoTime();
                        try {
                            Answer answer = api.order(voucher, buyer);
                            outcomes.add(new Timed(buyer, answer, Duration.ofNanos(System.nanoTime() - started)));
                            if (answer.status() == 202) {
                                acceptedSoFar.incrementAndGet();
                            }
                        } catch (RuntimeException e) {
                            unanswered.add(e);
                        }
                    }
                });
            }
            await().atMost(DEADLINE).until(() -> acceptedSoFar.get() >= 100);
            // SIGKILL, as the OOM killer would.
            ProcessHandle.of(pid).orElseThrow().destroyForcibly();
            // Back within seconds, on the same data, without a restart of the service; the crowd orders on.
            await().atMost(Duration.ofSeconds(15)).until(() -> redis.restarts() > restartsBefore);
            int acceptedAtRestart = acceptedSoFar.get();
            await().atMost(DEADLINE).until(() -> acceptedSoFar.get() >= acceptedAtRestart + 100);
            ordering.set(false);
            crowd.shutdown();
            assertThat(crowd.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
            assertThat(unanswered).isEmpty();
            assertThat(redisPid()).isNotEqualTo(pid);
            assertThat(ProcessHandle.of(pid)).isEmpty();

            Set<String> accepted = new HashSet<>();
            Set<Long> maybeOrdered = new HashSet<>();
            for (Timed outcome : outcomes) {
                Answer answer = outcome.answer();
                assertThat(answer.status()).as("buyer %d: %s", outcome.buyer(), answer.body()).isIn(202, 409, 503);
                // An admission in flight when Redis died may have run: its retry says ALREADY_ORDERED.
                assertThat(outcome.took()).as("buyer %d answered after", outcome.buyer())
                        .isLessThan(Duration.ofSeconds(10));
                if (answer.status() == 202) {
                    accepted.add(answer.json().get("orderId").asText());
                } else if (answer.status() == 409) {
                    assertThat(answer.code()).isEqualTo("ALREADY_ORDERED");
                    maybeOrdered.add(outcome.buyer());
                } else {
                    assertRedisUnavailable(answer);
                    maybeOrdered.add(outcome.buyer());
                }
            }

            assertThat(api.get("/actuator/health/liveness").status()).isEqualTo(200);

            // Every 202 in the database exactly once; any other row is an order of a buyer whose answer was lost.
            OrderStreams streams = new OrderStreams(stores.redis());
            await().atMost(DEADLINE).until(streams::quiet);
            Map<String, Long> rows = stores.rowsPerOrderId(voucher);
            assertThat(rows).containsAllEntriesOf(Stores.eachOnce(accepted));
            assertThat(rows.values()).allMatch(count -> count == 1);
            List<Long> others = new ArrayList<>();
            stores.jdbc().query("SELECT order_id, user_id FROM orders WHERE voucher_id = ?", row -> {
                if (!accepted.contains(Long.toString(row.getLong("order_id")))) {
                    others.add(row.getLong("user_id"));
                }
            }, voucher);
            assertThat(maybeOrdered).containsAll(others);
            new Invariants(stores.redis(), stores.jdbc(), keys).assertHold(voucher, stock);
        } finally {
            crowd.shutdownNow();
        }
    }

    /** seckill.admissions by outcome: absent until the first order refused for that reason. */
    private double redisUnavailableOrders() {
        Double value = api.prometheus().samples().get("seckill_admissions_total{outcome=\"redis_unavailable\"}");
        return value == null ? 0 : value;
    }

    private long redisPid() throws IOException {
        return Long.parseLong(Files.readString(redis.dataDir().resolve("redis.pid")).trim());
    }

    static void assertRedisUnavailable(Answer answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
        assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
        assertThat(answer.code()).isEqualTo("REDIS_UNAVAILABLE");
        assertThat(answer.json().get("status").asInt()).isEqualTo(503);
        assertThat(answer.json().get("title").asText()).isNotBlank();
        assertThat(answer.header("Retry-After")).isEqualTo("1");
    }

    private record Timed(long buyer, Answer answer, Duration took) {}
}
