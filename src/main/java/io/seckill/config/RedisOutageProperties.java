package io.seckill.config;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * How the service rides out a Redis that is down, restarting or failing over.
 *
 * @param retryAfter the Retry-After of a 503 REDIS_UNAVAILABLE (whole seconds, at least 1)
 * @param maxReconnectDelay the longest pause between two reconnection attempts of the Redis client (Lettuce doubles
 *     the pause from 1 ms up to this); the time from Redis being back to the service using it again
 * @param clusterRefreshInterval on a Redis Cluster, the shortest time between two re-reads of the cluster's topology
 *     that a failing node triggers (Lettuce's adaptive refresh, which waits 30 s of its own after each): the first
 *     comes before the cluster has replaced the node, the next one finds its promoted replica
 */
@Validated
@ConfigurationProperties("seckill.redis.outage")
public record RedisOutageProperties(@NotNull Duration retryAfter, @NotNull Duration maxReconnectDelay,
        @NotNull Duration clusterRefreshInterval) {

    public long retryAfterSeconds() {
        return Math.max(1, (retryAfter.toMillis() + 999) / 1000);
    }
}
