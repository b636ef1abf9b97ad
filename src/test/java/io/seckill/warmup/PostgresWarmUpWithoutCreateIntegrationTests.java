package io.seckill.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.seckill.support.ApiClient;
import io.seckill.support.PostgresIntegrationTest;
import io.seckill.support.PostgresUserWithoutCreateConfiguration;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * The warm-up on PostgreSQL as the service's user of a production database, which may create tables but not
 * schemas: the writer's scratch schema is refused, the writer stays cold with a warning, and the warm-up of the
 * rest still runs and opens the API, leaving nothing behind.
 */
@PostgresIntegrationTest
@Import(PostgresUserWithoutCreateConfiguration.class)
@TestPropertySource(properties = {
    "seckill.warm-up.enabled=true",
    "seckill.warm-up.min-duration=6s",
    "seckill.warm-up.max-duration=6s"
})
@ExtendWith(OutputCaptureExtension.class)
class PostgresWarmUpWithoutCreateIntegrationTests {

    @Autowired
    ApiClient api;

    /** The service's own: it connects as the user without CREATE. */
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void withoutCreateOnTheDatabaseTheWriterStaysColdAndTheApiOpensAnyway(CapturedOutput output) {
        assertThat(jdbc.queryForObject("SELECT has_database_privilege(current_database(), 'CREATE')", Boolean.class))
                .as("the service's user may create schemas: the test would prove nothing").isFalse();

        await().atMost(Duration.ofSeconds(60))
                .until(() -> api.get("/actuator/health/readiness").status() == 200);

        JsonNode warmUp = api.asOperator().get("/actuator/health/readiness").json().at("/components/warmUp");
        assertThat(warmUp.at("/details/state").asText()).isEqualTo("done");
        // The admission path was warmed; the writer wrote nothing.
        assertThat(warmUp.at("/details/requests").asLong()).isPositive();
        assertThat(warmUp.at("/details/written").asLong()).isZero();
        assertThat(output.getOut()).contains("Warm-up: the order writer is not warmed up (ERROR: permission denied "
                + "for database");
        // pg_namespace lists every schema; information_schema.schemata only those this user has a privilege on.
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM pg_namespace WHERE nspname LIKE 'seckill\\_warm\\_up\\_%'",
                Long.class)).isZero();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM orders", Long.class)).isZero();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM vouchers", Long.class)).isZero();

        long voucher = api.createVoucher(5);
        long orderId = Long.parseLong(api.orderAccepted(voucher, 7).get(0));
        await().atMost(Duration.ofSeconds(30)).until(() -> jdbc.queryForObject(
                "SELECT COUNT(*) FROM orders WHERE order_id = ?", Long.class, orderId) == 1);
        assertThat(jdbc.queryForMap("SELECT voucher_id, user_id, status FROM orders WHERE order_id = ?", orderId))
                .containsEntry("voucher_id", voucher).containsEntry("user_id", 7L).containsEntry("status", "CREATED");
    }
}
