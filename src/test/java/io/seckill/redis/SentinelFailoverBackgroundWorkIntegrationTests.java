package io.seckill.redis;

import static io.seckill.support.OrderStreams.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.EventSubscriber;
import io.seckill.support.OrderStreams;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.SentinelRedis;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/**
 * After Sentinel promoted the replica, the service's work behind the intake follows the new master as well: the
 * order events are published on it, an unpaid order expires and its unit is sold again, and the pending sweeper
 * takes over an entry a crashed consumer held (SentinelFailoverIntegrationTests proves the intake and the writer
 * under a crowd).
 */
@SeckillIntegrationTest
@DirtiesContext
@TestPropertySource(properties = "seckill.order.payment-timeout=2s")
class SentinelFailoverBackgroundWorkIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final long LONG_AGO_MILLIS = 600_000;
    private static final SentinelRedis REDIS = SentinelRedis.start(
            Path.of("target", "sentinel-background", UUID.randomUUID().toString()));

    @Autowired
    ApiClient api;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    @Value("${seckill.events.channel}")
    String channel;

    @DynamicPropertySource
    static void sentinelRedis(DynamicPropertyRegistry registry) {
        REDIS.serviceProperties().forEach((key, value) -> registry.add(key, () -> value));
    }

    @AfterAll
    static void stopRedis() throws Exception {
        REDIS.close();
    }

    @Test
    void eventsExpiryAndSweeperFollowThePromotedReplica() throws Exception {
        await().atMost(DEADLINE).until(() -> REDIS.replicaInSync() && REDIS.sentinelsSeeTheReplica());
        // Each part has run on the first master: the follow-up below is theirs, not their first start.
        long before = api.createVoucher(1);
        try (EventSubscriber events = EventSubscriber.at(REDIS.masterPort(), channel)) {
            String expiredBefore = api.orderAccepted(before, 1).get(0);
            awaitEventOf(events, expiredBefore);
            await().atMost(DEADLINE).until(() -> "CANCELLED".equals(status(expiredBefore)));
        }

        int oldMaster = REDIS.killMaster();
        await().atMost(DEADLINE).pollInterval(Duration.ofMillis(50)).until(() -> REDIS.masterPort() != oldMaster);
        await().atMost(DEADLINE).until(() -> api.get("/actuator/health/readiness").status() == 200);

        long voucher = api.createVoucher(1);
        try (EventSubscriber events = EventSubscriber.at(REDIS.masterPort(), channel)) {
            // The intake, the writer and the event publisher on the new master.
            String unpaid = await().atMost(DEADLINE).until(() -> api.order(voucher, 1), answer -> answer.status()
                    == 202).json().get("orderId").asText();
            await().atMost(DEADLINE).until(() -> rows(Long.parseLong(unpaid)) == 1);
            awaitEventOf(events, unpaid);
            assertThat(api.order(voucher, 2).code()).isEqualTo("SOLD_OUT");

            // The expiry: the unpaid order is cancelled after its 2 s and its unit is sold again.
            await().atMost(DEADLINE).until(() -> "CANCELLED".equals(status(unpaid)));
            await().atMost(DEADLINE).until(() -> api.order(voucher, 2).status() == 202);
        }

        // The sweeper: an entry a consumer read long ago and never acknowledged is claimed, written, acknowledged.
        OrderStreams streams = new OrderStreams(redis);
        long orderId = 8_000_000_000_000_000_000L + ThreadLocalRandom.current().nextLong(1_000_000_000L);
        String pending = streams.addPendingFor("crashed", 1, LONG_AGO_MILLIS,
                order(orderId, api.createVoucher(1), 3));
        await().atMost(DEADLINE).until(() -> rows(orderId) == 1 && !streams.contains(pending));
        assertThat(streams.deadLetterCount()).isZero();
    }

    private static void awaitEventOf(EventSubscriber events, String orderId) {
        List<String> arrived = new ArrayList<>();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            events.drainTo(arrived);
            assertThat(arrived).as("events").anyMatch(message -> message.contains("\"orderId\":\"" + orderId + "\""));
        });
    }

    private String status(String orderId) {
        List<String> statuses = jdbc.queryForList("SELECT status FROM orders WHERE order_id = ?", String.class,
                Long.parseLong(orderId));
        return statuses.isEmpty() ? null : statuses.get(0);
    }

    private long rows(long orderId) {
        Long rows = jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE order_id = ?", Long.class, orderId);
        return rows == null ? 0 : rows;
    }
}
