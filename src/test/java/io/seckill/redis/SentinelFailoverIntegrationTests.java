package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.Invariants;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.SentinelRedis;
import io.seckill.support.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The service on a Sentinel-managed Redis (a master, a replica, three Sentinels: real processes) while a crowd
 * orders, and the master's process is killed: Sentinel promotes the replica and the service follows by itself.
 */
@SeckillIntegrationTest
@DirtiesContext
class SentinelFailoverIntegrationTests {

    private static final Logger log = LoggerFactory.getLogger(SentinelFailoverIntegrationTests.class);
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int STOCK = 100_000;
    private static final SentinelRedis REDIS = SentinelRedis.start(
            Path.of("target", "sentinel-failover", UUID.randomUUID().toString()));

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

    @DynamicPropertySource
    static void sentinelRedis(DynamicPropertyRegistry registry) {
        REDIS.serviceProperties().forEach((key, value) -> registry.add(key, () -> value));
    }

    @AfterAll
    static void stopRedis() throws Exception {
        REDIS.close();
    }

    @Test
    void whenSentinelPromotesTheReplicaTheServiceFollowsAnswering503MeanwhileNever500() throws Exception {
        await().atMost(DEADLINE).until(() -> REDIS.replicaInSync() && REDIS.sentinelsSeeTheReplica());
        long voucher = api.createVoucher(STOCK);

        try (Crowd crowd = new Crowd(voucher)) {
            await().atMost(DEADLINE).until(() -> crowd.accepted().size() >= 200);
            int oldMaster = REDIS.killMaster();
            long killedAt = System.nanoTime();
            await().atMost(DEADLINE).pollInterval(Duration.ofMillis(50)).until(() -> REDIS.masterPort() != oldMaster);
            long promotedMillis = millisSince(killedAt);
            int acceptedAtPromotion = crowd.accepted().size();
            // Orders are taken again on the promoted replica.
            await().atMost(DEADLINE).until(() -> crowd.accepted().size() >= acceptedAtPromotion + 200);
            log.info("Master killed; Sentinel promoted the replica {} ms later; 200 more orders accepted {} ms after "
                    + "the kill", promotedMillis, millisSince(killedAt));
        }

        List<Answer> answers = Crowd.ANSWERS.stream().toList();
        Map<Integer, Long> statuses = answers.stream().collect(Collectors.groupingBy(Answer::status,
                Collectors.counting()));
        assertThat(statuses).as("statuses of the crowd's answers").containsOnlyKeys(202, 503);
        assertThat(answers.stream().filter(answer -> answer.status() == 503))
                .as("the answers while no master could be used").isNotEmpty()
                .allSatisfy(answer -> {
                    assertThat(answer.code()).isIn("REDIS_UNAVAILABLE", "VOUCHER_REBUILDING");
                    assertThat(answer.header("Retry-After")).isNotNull();
                });
        assertThat(Crowd.READINESS).as("readiness while the master was gone").contains(503);
        await().atMost(DEADLINE).until(() -> api.get("/actuator/health/readiness").status() == 200);

        // Every order the promoted master holds is written once; the orders a 202 answered and the replica never
        // received (replicated asynchronously: at most the master's last moment) are lost with the master.
        Set<String> accepted = new HashSet<>(Crowd.ACCEPTED);
        OrderStreamsQuiet quiet = new OrderStreamsQuiet(redis, keys.ordersOf(voucher));
        await().atMost(DEADLINE).until(quiet::quiet);
        Map<String, Long> written = stores.rowsPerOrderId(voucher);
        assertThat(written.values()).as("rows per order id").allMatch(rows -> rows == 1);
        assertThat(accepted).as("every row is an order answered 202").containsAll(written.keySet());
        log.info("{} orders answered 202, {} written; {} lost with the master", accepted.size(), written.size(),
                accepted.size() - written.size());
        new Invariants(redis, jdbc, keys).assertHold(voucher, STOCK);
    }

    private static long millisSince(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - nanos);
    }

    /** XLEN and XPENDING of the voucher's shard stream both 0: every entry read, written and acknowledged. */
    private record OrderStreamsQuiet(StringRedisTemplate redis, String stream) {

        boolean quiet() {
            Long length = redis.opsForStream().size(stream);
            return length != null && length == 0 && redis.opsForStream().pending(stream, "order-writers")
                    .getTotalPendingMessages() == 0;
        }
    }

    /** Four buyers' threads ordering one after another with new buyers, and a readiness probe every 50 ms. */
    private final class Crowd implements AutoCloseable {

        static final ConcurrentLinkedQueue<Answer> ANSWERS = new ConcurrentLinkedQueue<>();
        static final ConcurrentLinkedQueue<String> ACCEPTED = new ConcurrentLinkedQueue<>();
        static final ConcurrentLinkedQueue<Integer> READINESS = new ConcurrentLinkedQueue<>();
        private final AtomicLong buyers = new AtomicLong();
        private final AtomicBoolean stop = new AtomicBoolean();
        private final ExecutorService threads = Executors.newFixedThreadPool(5);

        Crowd(long voucher) {
            for (int i = 0; i < 4; i++) {
                threads.execute(() -> {
                    while (!stop.get()) {
                        Answer answer = api.order(voucher, buyers.incrementAndGet());
                        ANSWERS.add(answer);
                        if (answer.status() == 202) {
                            ACCEPTED.add(answer.json().get("orderId").asText());
                        }
                    }
                });
            }
            threads.execute(() -> {
                while (!stop.get()) {
                    READINESS.add(api.get("/actuator/health/readiness").status());
                    try {
                        TimeUnit.MILLISECONDS.sleep(50);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            });
        }

        List<String> accepted() {
            return List.copyOf(ACCEPTED);
        }

        @Override
        public void close() throws InterruptedException {
            stop.set(true);
            threads.shutdown();
            assertThat(threads.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        }
    }
}
