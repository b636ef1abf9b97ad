package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.SeckillIntegrationTest;
import java.nio.file.Files;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;
import org.springframework.util.FileSystemUtils;

/**
 * An embedded redis-server that dies and cannot be started again takes liveness DOWN with the reason, so that an
 * orchestrator restarts the service. A context of its own: its Redis stays dead.
 */
@SeckillIntegrationTest
@TestPropertySource(properties = "seckill.redis.restart-attempts=2")
@DirtiesContext
class EmbeddedRedisSupervisionIntegrationTests {

    @Autowired
    ApiClient api;

    @Autowired
    EmbeddedRedis redis;

    @Test
    void aRedisThatCannotBeStartedAgainTakesLivenessDownWithTheReason() throws Exception {
        assertThat(api.get("/actuator/health/liveness").status()).isEqualTo(200);
        long pid = Long.parseLong(Files.readString(redis.dataDir().resolve("redis.pid")).trim());

        // The data directory is gone (a volume lost), then the server dies: it has nothing to start again on.
        FileSystemUtils.deleteRecursively(redis.dataDir());
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
            Answer liveness = api.asOperator().get("/actuator/health/liveness");
            assertThat(liveness.status()).as(liveness.body()).isEqualTo(503);
            assertThat(liveness.json().at("/components/embeddedRedis/status").asText()).isEqualTo("DOWN");
            assertThat(liveness.json().at("/components/embeddedRedis/details/error").asText())
                    .contains("could not be started again", "2 attempts", redis.dataDir().toString());
        });
        // Meanwhile orders are refused as during any outage, not with a 500.
        Answer order = api.order(1, 1);
        assertThat(order.status()).as(order.body()).isEqualTo(503);
        assertThat(order.code()).isEqualTo("REDIS_UNAVAILABLE");
    }
}
