package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.support.InProcessService;
import io.seckill.support.StandaloneRedis;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * Two instances of the whole service on one Redis, given the same consumer name by mistake: the second refuses
 * to start and tells the operator which setting to change; once the first has stopped, the name is free.
 */
@ExtendWith(OutputCaptureExtension.class)
class ConsumerNameCollisionIntegrationTests {

    private static final String NAME = "twin";

    StandaloneRedis redis;

    @BeforeEach
    void startRedis() {
        redis = StandaloneRedis.start(Path.of("target", "consumer-names", UUID.randomUUID().toString()));
    }

    @AfterEach
    void stopRedis() throws Exception {
        redis.close();
    }

    @Test
    void aSecondInstanceWithTheSameNameDoesNotStartUntilTheFirstHasStopped(CapturedOutput output) {
        String lease = "seckill:consumers:order-writers:" + NAME;
        String firstToken;
        try (InProcessService first = InProcessService.start(new String[] {"test"}, properties())) {
            // GET: the first instance's lease
            firstToken = redis.template().opsForValue().get(lease);
            assertThat(firstToken).isNotNull();

            assertThatThrownBy(() -> InProcessService.start(new String[] {"test"}, properties()))
                    .rootCause()
                    .isInstanceOf(ConsumerNameTakenException.class)
                    .hasMessageContaining("seckill.stream.consumer-name '" + NAME + "' is in use by another instance")
                    .hasMessageContaining(firstToken);
            assertThat(output).contains("APPLICATION FAILED TO START")
                    .contains("Set seckill.stream.consumer-name (SECKILL_STREAM_CONSUMER_NAME) to a name no other");
            assertThat(redis.template().opsForValue().get(lease)).isEqualTo(firstToken);
        }

        assertThat(redis.template().hasKey(lease)).as("lease given up on shutdown").isFalse();
        try (InProcessService second = InProcessService.start(new String[] {"test"}, properties())) {
            assertThat(second.api().get("/actuator/health/liveness").status()).isEqualTo(200);
            assertThat(redis.template().opsForValue().get(lease)).isNotNull().isNotEqualTo(firstToken);
        }
    }

    private Map<String, Object> properties() {
        Map<String, Object> properties = new HashMap<>(redis.serviceProperties());
        properties.put("seckill.stream.consumer-name", NAME);
        return properties;
    }
}
