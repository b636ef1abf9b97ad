package io.seckill.monitoring;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * @param allowEviction take orders although Redis may evict keys (a {@code maxmemory} with a
 *     {@code maxmemory-policy} other than {@code noeviction}); otherwise readiness stays DOWN (health
 *     {@code redisEviction})
 */
@ConfigurationProperties("seckill.redis")
public record RedisEvictionProperties(boolean allowEviction) {}
