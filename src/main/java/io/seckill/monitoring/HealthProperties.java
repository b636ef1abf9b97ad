package io.seckill.monitoring;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * When the order writers are too far behind for this instance to take more orders: readiness goes DOWN above
 * either threshold, UP again once under both.
 *
 * @param maxBacklog orders accepted and not yet written (pending or unread), across every shard
 * @param maxOldestPendingAge age of the oldest order delivered to a writer and not yet acknowledged
 */
@Validated
@ConfigurationProperties("seckill.health")
public record HealthProperties(@Min(1) long maxBacklog, @NotNull Duration maxOldestPendingAge) {}
