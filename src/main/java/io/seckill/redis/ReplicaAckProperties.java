package io.seckill.redis;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * How many replicas must hold an accepted order before its buyer hears 202.
 *
 * @param replicaAcks replicas that must acknowledge the admission's writes ({@code WAIT}); 0: none asked (a 202
 *     is as durable as the master alone)
 * @param replicaAckTimeout how long the admission waits for them; past it the buyer hears 503, and the order
 *     stands if Redis keeps it (a retry answers ALREADY_ORDERED)
 */
@Validated
@ConfigurationProperties("seckill.redis")
public record ReplicaAckProperties(@Min(0) @Max(16) int replicaAcks, @NotNull Duration replicaAckTimeout) {

    public boolean enabled() {
        return replicaAcks > 0;
    }
}
