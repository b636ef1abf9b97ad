package io.seckill.monitoring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.context.TestPropertySource;

/** seckill.redis.allow-eviction=true: an evicting Redis is taken anyway, with a warning. */
@SeckillIntegrationTest
@DirtiesContext
@TestPropertySource(properties = "seckill.redis.allow-eviction=true")
@ExtendWith(OutputCaptureExtension.class)
class RedisEvictionAllowedIntegrationTests {

    private static final StandaloneRedis REDIS = StandaloneRedis.start(
            Path.of("target", "redis-eviction-allowed", UUID.randomUUID().toString()),
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
    void anEvictingRedisIsTakenWithAWarning(CapturedOutput output) {
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            Answer ready = api.asOperator().get("/actuator/health/readiness");
            assertThat(ready.status()).as(ready.body()).isEqualTo(200);
            assertThat(ready.json().at("/components/redisEviction/status").asText()).isEqualTo("UP");
            assertThat(ready.json().at("/components/redisEviction/details/setting").asText())
                    .isEqualTo("seckill.redis.allow-eviction=true");
        });
        assertThat(output.getOut()).contains(RedisEvictionIntegrationTests.WARNING, "taking orders anyway");
        assertThat(api.order(api.createVoucher(1), 1).status()).isEqualTo(202);
    }
}
