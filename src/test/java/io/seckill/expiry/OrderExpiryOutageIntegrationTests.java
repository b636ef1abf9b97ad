package io.seckill.expiry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient;
import io.seckill.support.FaultyDatabase;
import io.seckill.support.Invariants;
import io.seckill.support.SeckillIntegrationTest;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * The expiry while the database is down: an order that falls due meanwhile is neither lost nor half-cancelled.
 * It stays taken (leased, taken again each time the lease runs out), its unit stays sold, and once the database is
 * back it is cancelled and its unit returned, once. A payment meanwhile is 503 UNAVAILABLE, recorded nowhere.
 */
@SeckillIntegrationTest
@Import(FaultyDatabase.class)
@TestPropertySource(properties = {
    "seckill.order.payment-timeout=1s",
    "seckill.order.expiry.period-millis=200",
    "seckill.order.expiry.lease=1s"
})
class OrderExpiryOutageIntegrationTests {

    private static final Duration SETTLED = Duration.ofSeconds(30);

    @Autowired
    ApiClient api;

    @Autowired
    FaultyDatabase database;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    RedisKeys keys;

    @AfterEach
    void heal() {
        database.healAll();
    }

    @Test
    void anOrderFallingDueDuringAnOutageIsCancelledOnceTheDatabaseIsBack() {
        long voucher = api.createVoucher(1);
        String orderId = api.orderAccepted(voucher, 1).get(0);
        await().atMost(SETTLED).until(() -> api.getOrder(orderId, 1).status() == 200);
        JdbcTemplate real = new JdbcTemplate(database.real());
        String stream = keys.ordersOf(voucher);
        String member = RedisKeys.unpaidOrder(Long.parseLong(orderId), 1);

        database.goDown();
        ApiClient.Answer payment = api.pay(orderId, 1);
        assertThat(payment.status()).isEqualTo(503);
        assertThat(payment.code()).isEqualTo("UNAVAILABLE");
        assertThat(payment.header("Retry-After")).isEqualTo("5");
        // Past its window it is taken under a lease (ZSCORE cancelling = lease deadline), fails on the database,
        // and is taken again once the lease ran out: a later deadline.
        String cancelling = keys.cancellingOrdersOf(stream);
        Double[] firstLease = new Double[1];
        await().atMost(SETTLED).until(() -> (firstLease[0] = redis.opsForZSet().score(cancelling, member)) != null);
        await().atMost(SETTLED).until(() -> {
            Double lease = redis.opsForZSet().score(cancelling, member);
            return lease != null && lease > firstLease[0];
        });
        assertThat(database.refusedConnections()).isPositive();

        assertThat(real.queryForObject("SELECT status FROM orders WHERE order_id = ?", String.class,
                Long.parseLong(orderId))).isEqualTo("CREATED");
        assertThat(redis.opsForHash().get(keys.voucher(voucher), "stock")).as("its unit stays sold").isEqualTo("0");

        database.comeBack();

        await().atMost(SETTLED).until(() -> "CANCELLED".equals(api.getOrder(orderId, 1).json()
                .path("status").asText()));
        await().atMost(SETTLED).until(() -> redis.opsForZSet().zCard(keys.cancellingOrdersOf(stream)) == 0);
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(1);
        new Invariants(redis, real, keys).assertHold(voucher, 1);
    }
}
