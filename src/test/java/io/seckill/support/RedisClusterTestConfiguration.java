package io.seckill.support;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistrar;

/**
 * Gives the Spring context a three-master Redis Cluster of its own, stopped when the context closes. The test
 * also sets {@code seckill.redis.embedded=false}: that decides which configuration exists, before this runs.
 */
@TestConfiguration(proxyBeanMethods = false)
public class RedisClusterTestConfiguration {

    @Bean(destroyMethod = "close")
    EmbeddedRedisCluster embeddedRedisCluster() {
        return EmbeddedRedisCluster.start();
    }

    @Bean
    DynamicPropertyRegistrar redisClusterProperties(EmbeddedRedisCluster cluster) {
        return registry -> registry.add("spring.data.redis.cluster.nodes", cluster::nodes);
    }
}
