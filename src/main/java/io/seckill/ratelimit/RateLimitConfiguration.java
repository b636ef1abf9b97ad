package io.seckill.ratelimit;

import io.github.bucket4j.distributed.ExpirationAfterWriteStrategy;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.github.bucket4j.redis.lettuce.Bucket4jLettuce;
import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import java.time.Duration;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The token buckets behind {@link RateLimits}: Bucket4j keeps each bucket's state in one Redis key and changes it
 * with a compare-and-swap script, so every instance draws from the same bucket. It speaks Lettuce on a
 * connection of its own, opened from the client Spring Data Redis built (standalone or cluster alike).
 */
@Configuration(proxyBeanMethods = false)
class RateLimitConfiguration {

    /** An idle bucket's key lives until the bucket would be full again, plus this; then it is as if new. */
    static final Duration KEEP_AFTER_REFILL = Duration.ofSeconds(10);

    /** Not closed here: Spring stops the connection factory first, and its client's shutdown closes this too. */
    @Bean(destroyMethod = "")
    StatefulConnection<String, byte[]> rateLimitConnection(LettuceConnectionFactory connectionFactory) {
        RedisCodec<String, byte[]> codec = RedisCodec.of(StringCodec.UTF8, ByteArrayCodec.INSTANCE);
        AbstractRedisClient client = connectionFactory.getRequiredNativeClient();
        if (client instanceof RedisClusterClient cluster) {
            return cluster.connect(codec);
        }
        if (client instanceof RedisClient standalone) {
            return standalone.connect(codec);
        }
        throw new IllegalStateException("Unknown Lettuce client " + client.getClass().getName());
    }

    @Bean
    ProxyManager<String> rateLimitBuckets(StatefulConnection<String, byte[]> connection, RedisProperties redis) {
        Bucket4jLettuce.LettuceBasedProxyManagerBuilder<String> builder =
                connection instanceof StatefulRedisClusterConnection<String, byte[]> cluster
                        ? Bucket4jLettuce.casBasedBuilder(cluster)
                        : Bucket4jLettuce.casBasedBuilder((StatefulRedisConnection<String, byte[]>) connection);
        if (redis.getTimeout() != null) {
            builder.requestTimeout(redis.getTimeout());
        }
        return builder
                .expirationAfterWrite(ExpirationAfterWriteStrategy.basedOnTimeForRefillingBucketUpToMax(KEEP_AFTER_REFILL))
                .build();
    }
}
