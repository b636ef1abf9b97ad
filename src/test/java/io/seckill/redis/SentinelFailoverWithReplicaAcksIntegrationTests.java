package io.seckill.redis;

import org.junit.jupiter.api.BeforeAll;
import org.springframework.test.context.TestPropertySource;

/**
 * {@link SentinelFailoverIntegrationTests} with {@code seckill.redis.replica-acks=1}: a 202 only once a replica holds
 * the order, so the failover loses none. Two replicas: once one is promoted, the other acknowledges the new master's
 * orders (with one, every order after the failover would wait for a replica that is gone, and be answered 503).
 */
@TestPropertySource(properties = "seckill.redis.replica-acks=1")
class SentinelFailoverWithReplicaAcksIntegrationTests extends SentinelFailoverIntegrationTests {

    /** Hides the one replica of the class above. */
    @BeforeAll
    static void startRedis() {
        startRedis(2);
    }
}
