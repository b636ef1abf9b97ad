package io.seckill.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.Prometheus;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * After a known sequence of answers, writes and one poison entry, {@code /actuator/prometheus} shows exactly those
 * counts. A context of its own (fresher gauges than the test profile's), so every counter starts at 0.
 */
@SeckillIntegrationTest
@TestPropertySource(properties = "seckill.metrics.backlog-refresh=100ms")
@DirtiesContext
class MetricsIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Value("${seckill.api.engine}")
    String engine;

    @Test
    void prometheusCountsEveryAnswerEveryWriteAndTheDeadLetter() {
        Instant now = Instant.now();
        long voucher = api.createVoucher(3);
        long later = api.createVoucher("{\"title\":\"Later\",\"stock\":3,\"beginAt\":\"" + now.plusSeconds(3600)
                + "\"}").json().get("id").asLong();
        long gone = api.createVoucher("{\"title\":\"Gone\",\"stock\":3,\"beginAt\":\"" + now.minusSeconds(7200)
                + "\",\"endAt\":\"" + now.minusSeconds(3600) + "\"}").json().get("id").asLong();
        // A refusal of another route is no answer to an order.
        assertThat(api.createVoucher("{\"stock\":-1}").status()).isEqualTo(400);

        for (long buyer = 1; buyer <= 3; buyer++) {
            assertThat(api.order(voucher, buyer).status()).isEqualTo(202);
        }
        assertThat(api.order(voucher, 4).code()).isEqualTo("SOLD_OUT");
        assertThat(api.order(voucher, 1).code()).isEqualTo("ALREADY_ORDERED");
        assertThat(api.order(voucher, "abc").code()).isEqualTo("BAD_REQUEST");
        assertThat(api.order(987654321L, 1).code()).isEqualTo("VOUCHER_NOT_FOUND");
        assertThat(api.order(later, 1).code()).isEqualTo("NOT_STARTED");
        assertThat(api.order(gone, 1).code()).isEqualTo("ENDED");
        // XADD of an entry no writer can turn into an order: it must end among the dead letters.
        stores.redis().opsForStream().add("seckill:{s0}:orders", Map.of("orderId", "garbage", "voucherId", "x"));

        await().atMost(DEADLINE).untilAsserted(() -> {
            assertThat(stores.orderRows(voucher)).isEqualTo(3);
            Prometheus metrics = api.prometheus();
            assertThat(metrics.value("seckill_dead_letters{shard=\"0\"}")).isEqualTo(1);
            assertThat(metrics.value("seckill_stream_length{shard=\"0\"}")).isZero();
        });

        Prometheus metrics = api.prometheus();
        assertThat(metrics.value("seckill_admissions_total{outcome=\"accepted\"}")).isEqualTo(3);
        assertThat(metrics.value("seckill_admissions_total{outcome=\"sold_out\"}")).isEqualTo(1);
        assertThat(metrics.value("seckill_admissions_total{outcome=\"already_ordered\"}")).isEqualTo(1);
        assertThat(metrics.value("seckill_admissions_total{outcome=\"bad_request\"}")).isEqualTo(1);
        assertThat(metrics.value("seckill_admissions_total{outcome=\"voucher_not_found\"}")).isEqualTo(1);
        assertThat(metrics.value("seckill_admissions_total{outcome=\"not_started\"}")).isEqualTo(1);
        assertThat(metrics.value("seckill_admissions_total{outcome=\"ended\"}")).isEqualTo(1);
        assertThat(metrics.value("seckill_admissions_total{outcome=\"rate_limited\"}")).isZero();
        // A refusal is the answer the intake exists to give, not a failure of its route: Camel's failure counters
        // keep to what went wrong. On netty-http a refusal from memory (here the ALREADY_ORDERED, once the sold-out
        // voucher's buyers are copied) is answered before any route, no exchange of the route, or by the route: when
        // the copy arrived between the engine's look and the route's, or for one NOT_STARTED in 16.
        double routed = metrics.sum("camel_exchanges_total", "routeId=\"place-order\"");
        double remembered = metrics.value("seckill_admissions_remembered_total");
        assertThat(routed).isBetween("netty-http".equals(engine) ? 9 - remembered : 9, 9.0);
        assertThat(metrics.sum("camel_exchanges_succeeded_total", "routeId=\"place-order\"")).isEqualTo(routed);
        assertThat(metrics.sum("camel_exchanges_failures_handled_total", "routeId=\"place-order\"")).isZero();
        assertThat(metrics.sum("camel_exchanges_failed_total", "routeId=\"place-order\"")).isZero();
        // Each exchange timed (io.seckill.monitoring.RouteMetrics keeps camel-micrometer's meters), the writer's too.
        assertThat(metrics.sum("camel_route_policy_seconds_count", "routeId=\"place-order\"")).isEqualTo(routed);
        assertThat(metrics.sum("camel_route_policy_seconds_sum", "routeId=\"place-order\"")).isPositive();
        assertThat(metrics.sum("camel_route_policy_seconds_count", "routeId=\"write-orders\"")).isPositive();
        assertThat(metrics.sum("app_info", "camel_version=\"4.17.0\"")).isEqualTo(1);
        assertThat(metrics.value("seckill_orders_written_total")).isEqualTo(3);
        assertThat(metrics.value("seckill_orders_end_to_end_seconds_count")).isEqualTo(3);
        assertThat(metrics.value("seckill_orders_write_seconds_count{mode=\"batch\"}")
                + metrics.value("seckill_orders_write_seconds_count{mode=\"single\"}")).isPositive();
        assertThat(metrics.value("seckill_orders_batch_size_sum")
                + metrics.value("seckill_orders_write_seconds_count{mode=\"single\"}")).isEqualTo(3);
        assertThat(metrics.value("seckill_stream_pending{shard=\"0\"}")).isZero();
        assertThat(metrics.value("seckill_stream_lag{shard=\"0\"}")).isZero();
        assertThat(metrics.value("seckill_stream_oldest_pending_age_seconds{shard=\"0\"}")).isZero();
    }
}
