package io.seckill.support;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistrar;

/**
 * Gives the Spring context a three-master Redis Cluster of its own, stopped when the context closes; with
 * {@code test.redis-cluster.replicas-per-master=N}, each master has N replicas. The test also sets
 * {@code seckill.redis.embedded=false}: that decides which configuration exists, before this runs.
 */
@TestConfiguration(proxyBeanMethods = false)
public class RedisClusterTestConfiguration {

    @Bean(destroyMethod = "close")
    EmbeddedRedisCluster embeddedRedisCluster(@Value("${test.redis-cluster.replicas-per-master:0}") int replicas) {
        return EmbeddedRedisCluster.start(replicas);
    }

    @Bean
    DynamicPropertyRegistrar redisClusterProperties(EmbeddedRedisCluster cluster) {
        return registry -> registry.add("spring.data.redis.cluster.nodes", cluster::nodes);
    }
}
