package io.seckill.config;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Starts the embedded Redis unless {@code seckill.redis.embedded=false}, and points Spring Data Redis at it, with its
 * password, through {@link RedisConnectionDetails}, which takes precedence over {@code spring.data.redis.*}: every
 * connection the service opens comes from the client Boot builds from it (the template's, the stream readers', the
 * listener containers', the scripts' own one), so all of them authenticate. It has the server rewrite its append-only
 * file while the intake is quiet ({@link QuietAofRewrites}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "seckill.redis.embedded", havingValue = "true", matchIfMissing = true)
class EmbeddedRedisConfiguration {

    @Bean(destroyMethod = "close")
    EmbeddedRedis embeddedRedis(EmbeddedRedisProperties properties) {
        return EmbeddedRedis.start(properties.port(), properties.dataDir(), properties.appendfsync().redisValue(),
                properties.restartAttempts(), properties.refusedCommands(), properties.aofRewrite().maxSize());
    }

    @Bean
    QuietAofRewrites quietAofRewrites(StringRedisTemplate redis, EmbeddedRedisProperties properties) {
        return new QuietAofRewrites(redis, properties.aofRewrite());
    }

    @Bean
    RedisConnectionDetails embeddedRedisConnectionDetails(EmbeddedRedis redis) {
        return new RedisConnectionDetails() {
            @Override
            public Standalone getStandalone() {
                return Standalone.of("127.0.0.1", redis.port());
            }

            @Override
            public String getPassword() {
                return redis.password();
            }
        };
    }
}
