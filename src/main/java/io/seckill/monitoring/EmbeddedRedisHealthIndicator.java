package io.seckill.monitoring;

import io.seckill.config.EmbeddedRedis;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.stereotype.Component;

/**
 * Health {@code embeddedRedis}, part of liveness: DOWN only when the embedded redis-server died and could not be
 * started again, with the reason, so that an orchestrator restarts the service. While it is being restarted it
 * stays UP (readiness, through the {@code redis} health, is DOWN meanwhile): a restart of the service would not
 * bring it back sooner. With an external Redis there is nothing to supervise here; it is UP and says so (always
 * present, so the liveness group names the same contributors either way).
 */
@Component
class EmbeddedRedisHealthIndicator extends AbstractHealthIndicator {

    private final ObjectProvider<EmbeddedRedis> embeddedRedis;

    EmbeddedRedisHealthIndicator(ObjectProvider<EmbeddedRedis> embeddedRedis) {
        super("Embedded Redis state could not be read");
        this.embeddedRedis = embeddedRedis;
    }

    @Override
    protected void doHealthCheck(Health.Builder health) {
        EmbeddedRedis redis = embeddedRedis.getIfAvailable();
        if (redis == null) {
            health.up().withDetail("embedded", false);
            return;
        }
        redis.failure().ifPresentOrElse(
                reason -> health.down().withDetail("error", reason),
                () -> health.up());
        health.withDetail("embedded", true).withDetail("port", redis.port()).withDetail("restarts", redis.restarts());
    }
}
