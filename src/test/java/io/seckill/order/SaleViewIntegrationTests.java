package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.EmbeddedRedis;
import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.ApiClient;
import io.seckill.support.InProcessService;
import io.seckill.support.Invariants;
import io.seckill.support.RawRedis;
import io.seckill.support.RedisMonitor;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.SharedEmbeddedRedis;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.jdbc.DataSourceProperties;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * Refusals from memory on two instances of one Redis and one database, as behind a load balancer: this test's own
 * instance (a memory of 1 s, the default) and a second one that remembers for 30 s, so that only the announcement
 * of a returned unit can make it forget in time. Unpaid orders are cancelled after 5 s: a test must see the sold-out
 * voucher remembered before its unit comes back, which took over 2 s on a loaded machine. Redis's state is checked
 * once an hour only: the periodic check reads every voucher's hash, and the first test counts who else does.
 */
@SeckillIntegrationTest
@TestPropertySource(properties = {
    "seckill.order.payment-timeout=5s",
    "seckill.order.expiry.period-millis=200",
    "seckill.redis.state-check.check-period=1h"
})
class SaleViewIntegrationTests {

    private static final Duration SETTLED = Duration.ofSeconds(30);
    private static final AtomicLong BUYERS = new AtomicLong(1000);

    @Autowired
    ApiClient api;

    @Autowired
    EmbeddedRedis embeddedRedis;

    @Autowired
    DataSourceProperties dataSource;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    RedisKeys keys;

    @Value("${seckill.api.engine}")
    String engine;

    @Autowired
    @Qualifier("saleViewSubscription")
    RedisMessageListenerContainer subscription;

    /** Started by the first test that needs it (once this class's own service runs), stopped after the last. */
    private static InProcessService secondInstance;

    @AfterAll
    static void stopTheSecondInstance() {
        if (secondInstance != null) {
            secondInstance.close();
            secondInstance = null;
        }
    }

    private InProcessService second() {
        if (secondInstance == null) {
            secondInstance = startTheSecondInstance();
        }
        return secondInstance;
    }

    /** On this instance's engine (the refusals from memory are answered before the routes on netty-http). */
    private InProcessService startTheSecondInstance() {
        return InProcessService.start(new String[] {"test"}, SharedEmbeddedRedis.serviceProperties(embeddedRedis,
                Map.of("spring.datasource.url", dataSource.getUrl(),
                        "seckill.api.engine", engine,
                        "seckill.api.management-port", "0",
                        "seckill.stream.consumer-name", "second-instance",
                        "seckill.order.payment-timeout", "5s",
                        "seckill.redis.state-check.check-period", "1h",
                        "seckill.sale-view.ttl", "30s")));
    }

    @Test
    void aSoldOutVoucherIsRefusedFromMemoryWithoutARoundTripAndAWinnerStillHearsAlreadyOrdered() throws Exception {
        long voucher = api.createVoucher(1);
        long winner = buyer();
        String order = api.orderAccepted(voucher, winner).get(0);
        // Paid, so that the expiry does not return the unit (a script on the voucher's hash) while Redis is watched.
        await().atMost(SETTLED).until(() -> api.pay(order, winner).status() == 200);
        // The first refusal runs the script; the buyers are copied; then the view answers.
        awaitRemembered(second().api(), voucher, "SOLD_OUT");

        try (RedisMonitor monitor = RedisMonitor.start(embeddedRedis.port(), embeddedRedis.password())) {
            for (int i = 0; i < 50; i++) {
                assertThat(second().api().order(voucher, buyer()).code()).isEqualTo("SOLD_OUT");
            }
            assertThat(second().api().order(voucher, winner).code()).isEqualTo("ALREADY_ORDERED");
            // A command that reaches Redis after the last answer is seen before this one.
            redis.opsForHash().get(keys.voucher(voucher), "marker-of-the-test");

            await().atMost(SETTLED).until(() -> monitor.commandsNaming("marker-of-the-test") > 0);
            // No admission script ran for any of them. (The stock gauges of both instances read the hash every 5 s,
            // which a slow machine's 51 requests may overlap.)
            assertThat(monitor.scriptsNaming(keys.voucher(voucher))).as("scripts run on the voucher's hash")
                    .isZero();
        }
        assertThat(second().api().order(voucher, buyer()).header("Retry-After")).isNull();
        new Invariants(redis, jdbc, keys).assertHold(voucher, 1);
    }

    @Test
    void anUnpaidOrderCancelledOnOneInstanceIsSoldOnTheOtherWithinASecond() throws Exception {
        second();
        long voucher = api.createVoucher(1);
        api.orderAccepted(voucher, buyer());
        awaitRemembered(second().api(), voucher, "SOLD_OUT");

        // HGET voucher stock: the expiry (of either instance) returns the unit after the 5 s window.
        await().atMost(SETTLED).pollInterval(Duration.ofMillis(5))
                .until(() -> "1".equals(redis.opsForHash().get(keys.voucher(voucher), "stock")));
        Instant returned = Instant.now();
        await().atMost(SETTLED).pollInterval(Duration.ofMillis(5))
                .until(() -> second().api().order(voucher, buyer()).status() == 202);

        assertThat(Duration.between(returned, Instant.now())).as("the second instance remembers for 30 s")
                .isLessThan(Duration.ofSeconds(1));
    }

    @Test
    void aLostAnnouncementHealsWithinTheMemorysTtl() throws Exception {
        long voucher = api.createVoucher(1);
        api.orderAccepted(voucher, buyer());
        awaitRemembered(api, voucher, "SOLD_OUT");
        // This instance's subscriber goes away (UNSUBSCRIBE): what is announced meanwhile never reaches it.
        long subscribed = subscribers();
        subscription.stop();
        try {
            await().atMost(SETTLED).ignoreExceptions().until(() -> subscribers() == subscribed - 1);

            await().atMost(SETTLED).pollInterval(Duration.ofMillis(5))
                    .until(() -> "1".equals(redis.opsForHash().get(keys.voucher(voucher), "stock")));
            Instant returned = Instant.now();
            await().atMost(SETTLED).pollInterval(Duration.ofMillis(5))
                    .until(() -> api.order(voucher, buyer()).status() == 202);

            assertThat(Duration.between(returned, Instant.now())).as("this instance remembers for 1 s")
                    .isLessThan(Duration.ofMillis(1500));
        } finally {
            subscription.start();
        }
        await().atMost(SETTLED).until(() -> subscribers() == subscribed);
    }

    @Test
    void theSaleOpensAtItsStartOnEveryInstance() throws Exception {
        long beginAt = redisMillis() + 2000;
        Answer created = api.asOperator().post("/api/vouchers", "{\"title\":\"At the stroke\",\"stock\":10,"
                + "\"beginAt\":\"" + Instant.ofEpochMilli(beginAt) + "\"}");
        long voucher = created.json().get("id").asLong();

        for (ApiClient instance : new ApiClient[] {api, second().api()}) {
            assertThat(instance.order(voucher, buyer()).code()).isEqualTo("NOT_STARTED");
            awaitRemembered(instance, voucher, "NOT_STARTED");
        }
        for (ApiClient instance : new ApiClient[] {api, second().api()}) {
            long[] opened = new long[1];
            await().atMost(SETTLED).pollInterval(Duration.ofMillis(2)).until(() -> {
                Answer answer = instance.order(voucher, buyer());
                opened[0] = redisMillis();
                return answer.status() == 202;
            });
            assertThat(opened[0]).as("accepted from the start, by Redis's clock")
                    .isBetween(beginAt, beginAt + 1000);
        }
    }

    /** Until a refusal of this voucher is answered from the instance's memory. */
    private static void awaitRemembered(ApiClient instance, long voucher, String code) {
        Map<Long, Long> counted = new java.util.HashMap<>();
        await().atMost(SETTLED).until(() -> {
            long before = remembered(instance);
            Answer answer = instance.order(voucher, buyer());
            assertThat(answer.code()).isEqualTo(code);
            counted.put(voucher, remembered(instance) - before);
            return counted.get(voucher) > 0;
        });
    }

    private static long remembered(ApiClient instance) {
        return (long) instance.asOperator().prometheus().value("seckill_admissions_remembered_total");
    }

    private long subscribers() {
        // PUBSUB NUMSUB seckill:sale-view → *2 $17 seckill:sale-view :<count>, on a connection of its own
        try (RawRedis raw = RawRedis.connect(embeddedRedis.port()).authenticate(embeddedRedis.password())) {
            List<String> reply = raw.call(4, "PUBSUB", "NUMSUB", "seckill:sale-view");
            return Long.parseLong(reply.get(3).substring(1));
        }
    }

    private long redisMillis() {
        // TIME
        return redis.execute((RedisCallback<Long>) connection -> connection.serverCommands().time());
    }

    private static long buyer() {
        return BUYERS.incrementAndGet();
    }
}
