package io.seckill.expiry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.ApiClient;
import io.seckill.support.Invariants;
import io.seckill.support.PostgresIntegrationTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.component.redis.stream.StreamEntry;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * Payment and expiry on PostgreSQL (its own dialect of the insert, the unique index on live buyers, the
 * payment's time comparison), with a 2 s window.
 */
@PostgresIntegrationTest
@TestPropertySource(properties = {
    "seckill.order.payment-timeout=2s",
    "seckill.order.expiry.period-millis=200"
})
class PostgresOrderExpiryIntegrationTests {

    private static final Duration SETTLED = Duration.ofSeconds(30);

    @Autowired
    ApiClient api;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    RedisKeys keys;

    @Autowired
    CamelContext camel;

    @Test
    void paidOrderStaysPaidAndAnUnpaidOnesUnitIsSoldAgainToItsBuyer() {
        long voucher = api.createVoucher(2);
        String paid = written(voucher, 1);
        String unpaid = written(voucher, 2);

        Answer payment = api.pay(paid, 1);
        assertThat(payment.status()).isEqualTo(200);
        assertThat(payment.json().get("status").asText()).isEqualTo("PAID");
        await().atMost(SETTLED).until(() -> "CANCELLED".equals(status(unpaid, 2)));
        assertThat(api.pay(unpaid, 2).code()).isEqualTo("PAYMENT_EXPIRED");

        // The same buyer again: live_buyer_id is NULL on the cancelled row, so the unique index lets it in.
        String again = written(voucher, 2);
        assertThat(api.pay(again, 2).status()).isEqualTo(200);
        assertThat(status(paid, 1)).isEqualTo("PAID");
        Invariants.Ledger ledger = new Invariants(redis, jdbc, keys).assertHold(voucher, 2);
        assertThat(ledger.rows()).isEqualTo(2);
        assertThat(ledger.cancelledRows()).isEqualTo(1);
    }

    @Test
    void aRedeliveredEntryDoesNotReviveACancelledOrder() {
        long voucher = api.createVoucher(1);
        String orderId = written(voucher, 1);
        await().atMost(SETTLED).until(() -> "CANCELLED".equals(status(orderId, 1)));
        long now = System.currentTimeMillis();
        StreamEntry again = new StreamEntry(keys.ordersOf(voucher), "1-0", Map.of("orderId", orderId,
                "voucherId", Long.toString(voucher), "userId", "1", "acceptedAt", Long.toString(now - 5000),
                "payBefore", Long.toString(now - 3000)));

        camel.createProducerTemplate().sendBody("direct:write-orders", List.of(again));

        assertThat(status(orderId, 1)).isEqualTo("CANCELLED");
        new Invariants(redis, jdbc, keys).assertHold(voucher, 1);
    }

    private String written(long voucher, long buyer) {
        String orderId = api.orderAccepted(voucher, buyer).get(0);
        await().atMost(SETTLED).until(() -> api.getOrder(orderId, buyer).status() == 200);
        return orderId;
    }

    private String status(String orderId, long buyer) {
        return api.getOrder(orderId, buyer).json().path("status").asText();
    }
}
