package io.seckill.warmup;

import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.stereotype.Component;

/** Readiness component {@code warmUp}: DOWN while the service warms itself up, then what the warm-up reached. */
@Component
class WarmUpHealthIndicator extends AbstractHealthIndicator {

    private final WarmUp warmUp;

    WarmUpHealthIndicator(WarmUp warmUp) {
        this.warmUp = warmUp;
    }

    @Override
    protected void doHealthCheck(Health.Builder health) {
        WarmUp.Outcome outcome = warmUp.outcome();
        if (outcome == null) {
            health.down().withDetail("state", "warming up");
        } else {
            health.up().withDetail("state", outcome.state()).withDetail("requests", outcome.requests())
                    .withDetail("seconds", outcome.seconds()).withDetail("lastSecondRate", outcome.lastSecondRate())
                    .withDetail("written", outcome.written()).withDetail("sales", outcome.sales())
                    .withDetail("connections", outcome.connections());
        }
    }
}
