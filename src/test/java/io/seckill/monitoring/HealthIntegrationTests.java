package io.seckill.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.seckill.config.EmbeddedRedis;
import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.time.Duration;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * {@code /actuator/health} and its readiness group follow what the service depends on: Redis, and writers that keep
 * up. Read with the operator's login, which shows the components. A context of its own: these tests stop its Redis
 * and its order writer.
 */
@SeckillIntegrationTest
@TestPropertySource(properties = {"seckill.health.max-backlog=5", "spring.data.redis.timeout=1s"})
@DirtiesContext
class HealthIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    EmbeddedRedis redis;

    @Autowired
    CamelContext camel;

    @Test
    void healthGoesDownWhileRedisIsDownAndUpOnceItIsBack() {
        assertThat(api.asOperator().get("/actuator/health").status()).isEqualTo(200);

        redis.close();
        try {
            await().atMost(DEADLINE).untilAsserted(() -> {
                Answer health = api.asOperator().get("/actuator/health");
                assertThat(health.status()).isEqualTo(503);
                assertThat(status(health, "redis")).isEqualTo("DOWN");
                assertThat(status(health, "orderBacklog")).isEqualTo("DOWN");
                assertThat(health.json().at("/components/camelHealth/details/consumer:order-writer").asText())
                        .isEqualTo("DOWN");
            });
            assertThat(api.asOperator().get("/actuator/health/readiness").status()).isEqualTo(503);
            // A restart would not bring Redis back: the instance stays live.
            assertThat(api.get("/actuator/health/liveness").status()).isEqualTo(200);
        } finally {
            redis.restart();
        }

        await().atMost(DEADLINE).untilAsserted(() -> {
            Answer health = api.asOperator().get("/actuator/health");
            assertThat(health.status()).as(health.body()).isEqualTo(200);
        });
        long voucher = api.createVoucher(1);
        assertThat(api.order(voucher, 1).status()).isEqualTo(202);
        await().atMost(DEADLINE).until(() -> stores.orderRows(voucher) == 1);
    }

    @Test
    void readinessGoesDownAboveTheBacklogThresholdAndUpOnceTheWriterCatchesUp() throws Exception {
        long voucher = api.createVoucher(10);
        camel.getRouteController().stopRoute("order-writer");
        try {
            for (long buyer = 1; buyer <= 5; buyer++) {
                assertThat(api.order(voucher, buyer).status()).isEqualTo(202);
            }
            // XLEN 5: at the threshold, still within it.
            await().atMost(DEADLINE).untilAsserted(() -> {
                JsonNode backlog = api.asOperator().get("/actuator/health/readiness").json().at("/components/orderBacklog");
                assertThat(backlog.at("/details/backlog").asLong()).isEqualTo(5);
                assertThat(backlog.at("/status").asText()).isEqualTo("UP");
            });

            assertThat(api.order(voucher, 6).status()).isEqualTo(202);

            await().atMost(DEADLINE).untilAsserted(() -> {
                Answer readiness = api.asOperator().get("/actuator/health/readiness");
                assertThat(readiness.status()).isEqualTo(503);
                assertThat(status(readiness, "orderBacklog")).isEqualTo("DOWN");
                assertThat(readiness.json().at("/components/orderBacklog/details/backlog").asLong()).isEqualTo(6);
            });
        } finally {
            camel.getRouteController().startRoute("order-writer");
        }

        await().atMost(DEADLINE).untilAsserted(() -> {
            Answer readiness = api.asOperator().get("/actuator/health/readiness");
            assertThat(readiness.status()).as(readiness.body()).isEqualTo(200);
            assertThat(status(readiness, "orderBacklog")).isEqualTo("UP");
        });
        assertThat(stores.orderRows(voucher)).isEqualTo(6);
    }

    private static String status(Answer health, String component) {
        return health.json().at("/components/" + component + "/status").asText();
    }
}
