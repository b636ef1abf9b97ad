package io.seckill.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.StandaloneRedis;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An external Redis that may evict keys (maxmemory 10mb, allkeys-lru) keeps the service unready, and says why, until
 * its policy is noeviction.
 */
@SeckillIntegrationTest
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
class RedisEvictionIntegrationTests {

    static final String WARNING = "Redis may evict keys (maxmemory-policy allkeys-lru, maxmemory 10485760)";
    private static final StandaloneRedis REDIS = StandaloneRedis.start(
            Path.of("target", "redis-eviction", UUID.randomUUID().toString()),
            "maxmemory 10mb", "maxmemory-policy allkeys-lru");

    @Autowired
    ApiClient api;

    @DynamicPropertySource
    static void evictingRedis(DynamicPropertyRegistry registry) {
        REDIS.serviceProperties().forEach((key, value) -> registry.add(key, () -> value));
    }

    @AfterAll
    static void stopRedis() throws Exception {
        REDIS.close();
    }

    @Test
    void readinessStaysDownWhileRedisMayEvictAndComesUpOncePolicyIsNoeviction(CapturedOutput output) {
        Answer readiness = api.asOperator().get("/actuator/health/readiness");
        assertThat(readiness.status()).as(readiness.body()).isEqualTo(503);
        JsonNode eviction = readiness.json().at("/components/redisEviction");
        assertThat(eviction.at("/status").asText()).isEqualTo("DOWN");
        assertThat(eviction.at("/details/maxmemory-policy").asText()).isEqualTo("allkeys-lru");
        assertThat(eviction.at("/details/setting").asText()).isEqualTo("seckill.redis.allow-eviction=false");
        assertThat(api.get("/actuator/health/readiness").status()).isEqualTo(503);
        // One WARN line at start, however often readiness is asked.
        assertThat(output.getOut().lines().filter(line -> line.contains(WARNING) && line.contains("WARN")))
                .hasSize(1).allMatch(line -> line.contains("seckill.redis.allow-eviction"));

        // CONFIG SET maxmemory-policy noeviction: mended without a restart.
        REDIS.template().execute((RedisCallback<Void>) connection -> {
            connection.serverCommands().setConfig("maxmemory-policy", "noeviction");
            return null;
        });
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Answer ready = api.asOperator().get("/actuator/health/readiness");
            assertThat(ready.status()).as(ready.body()).isEqualTo(200);
            assertThat(ready.json().at("/components/redisEviction/status").asText()).isEqualTo("UP");
        });
        assertThat(output.getOut()).contains("Redis no longer evicts keys");
    }
}
