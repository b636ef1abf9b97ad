package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.EmbeddedRedis;
import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient;
import io.seckill.support.FlashCrowd.Outcome;
import io.seckill.support.FlashCrowd;
import io.seckill.support.InProcessService;
import io.seckill.support.Invariants;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.SharedEmbeddedRedis;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.jdbc.DataSourceProperties;
import org.springframework.data.redis.connection.stream.StreamInfo;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two instances of the service on one Redis and one database, as behind a load balancer: both take orders in
 * the same flash crowd and both read the order stream in the group, and the outcome is exactly what one
 * instance would give.
 */
@SeckillIntegrationTest
class MultiInstanceIntegrationTests {

    private static final Duration DRAINED = Duration.ofSeconds(60);

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

    @Test
    void twoInstancesInOneFlashCrowdSellExactlyTheStock() throws Exception {
        // The second instance: this context's embedded Redis and in-memory H2 database (one per JVM by name).
        try (InProcessService second = InProcessService.start(new String[] {"test"},
                SharedEmbeddedRedis.serviceProperties(embeddedRedis, Map.of(
                        "spring.datasource.url", dataSource.getUrl(),
                        "seckill.stream.consumer-name", "second-instance")))) {
            int stock = 50;
            List<Long> vouchers = List.of(api.createVoucher(stock), second.api().createVoucher(stock),
                    api.createVoucher(stock));

            // 80 buyers for each 50 units, 20 of them twice, every other request to the other instance.
            List<Outcome> outcomes = FlashCrowd.send(FlashCrowd.orders(vouchers, 80, 20), 8, api, second.api());

            assertThat(outcomes).allSatisfy(outcome -> assertThat(outcome.status()).isIn(202, 409));
            assertThat(outcomes.stream().filter(Outcome::accepted).map(Outcome::instance).distinct())
                    .as("instances that accepted orders").containsExactlyInAnyOrder(0, 1);
            Set<Long> acceptedIds = outcomes.stream().filter(Outcome::accepted)
                    .map(o -> Long.parseLong(o.orderId())).collect(Collectors.toSet());
            assertThat(acceptedIds).as("order ids unique across instances").hasSize(stock * vouchers.size());

            String stream = keys.orderStreams().get(0);
            await().atMost(DRAINED).until(() -> redis.opsForStream().size(stream) == 0
                    && redis.opsForStream().pending(stream, "order-writers").getTotalPendingMessages() == 0);
            assertThat(vouchers.stream().flatMap(voucher -> jdbc.queryForList(
                    "SELECT order_id FROM orders WHERE voucher_id = ?", Long.class, voucher).stream()))
                    .containsExactlyInAnyOrderElementsOf(acceptedIds);
            Invariants invariants = new Invariants(redis, jdbc, keys);
            for (long voucher : vouchers) {
                assertThat(invariants.assertHold(voucher, stock).rows()).isEqualTo(stock);
            }
            // XINFO CONSUMERS: both instances read the stream through the one group, each under its own name.
            assertThat(redis.opsForStream().consumers(stream, "order-writers").stream()
                    .map(StreamInfo.XInfoConsumer::consumerName))
                    .contains("test", "second-instance");

            // Either instance answers for any order: the database is the one both write to.
            Outcome taken = outcomes.stream().filter(o -> o.accepted() && o.instance() == 0).findFirst().orElseThrow();
            ApiClient.Answer read = second.api().getOrder(taken.orderId(), taken.order().userId());
            assertThat(read.status()).isEqualTo(200);
            assertThat(read.json().get("userId").asLong()).isEqualTo(taken.order().userId());
        }
    }
}
