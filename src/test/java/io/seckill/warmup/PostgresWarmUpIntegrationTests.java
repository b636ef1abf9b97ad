package io.seckill.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.seckill.support.ApiClient;
import io.seckill.support.PostgresIntegrationTest;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * The warm-up on PostgreSQL: its orders written by the order writer's path into a schema of its own, made and
 * dropped with the service's own database user; nothing in the service's tables.
 */
@PostgresIntegrationTest
@TestPropertySource(properties = {
    "seckill.warm-up.enabled=true",
    "seckill.warm-up.min-duration=6s",
    "seckill.warm-up.max-duration=6s"
})
class PostgresWarmUpIntegrationTests {

    @Autowired
    ApiClient api;

    @Autowired
    JdbcTemplate jdbc;

    @Test
    void theWarmUpsWriterWritesIntoASchemaOfItsOwnAndDropsIt() {
        await().atMost(Duration.ofSeconds(60))
                .until(() -> api.get("/actuator/health/readiness").status() == 200);

        JsonNode warmUp = api.asOperator().get("/actuator/health/readiness").json().at("/components/warmUp");
        assertThat(warmUp.at("/details/state").asText()).isEqualTo("done");
        assertThat(warmUp.at("/details/written").asLong()).isGreaterThan(50);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name LIKE "
                + "'seckill_warm_up_%'", Long.class)).isZero();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM orders", Long.class)).isZero();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM vouchers", Long.class)).isZero();
    }
}
