package io.seckill.monitoring;

import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.stereotype.Component;

/**
 * Health {@code orderBacklog}, part of readiness: DOWN when more orders wait to be written than
 * {@code seckill.health.max-backlog}, or when the oldest pending one was accepted longer ago than
 * {@code seckill.health.max-oldest-pending-age}, or when the streams cannot be read. Dead letters are shown, but
 * do not count: they wait for an operator, not for a writer.
 */
@Component
class OrderBacklogHealthIndicator extends AbstractHealthIndicator {

    private final StreamBacklog backlog;
    private final HealthProperties limits;

    OrderBacklogHealthIndicator(StreamBacklog backlog, HealthProperties limits) {
        super("Order streams could not be read");
        this.backlog = backlog;
        this.limits = limits;
    }

    @Override
    protected void doHealthCheck(Health.Builder health) {
        judge(backlog.current(), limits, health);
    }

    static void judge(Backlog now, HealthProperties limits, Health.Builder health) {
        if (!now.isRead()) {
            health.down().withDetail("error", now.failure());
            return;
        }
        boolean tooMany = now.waiting() > limits.maxBacklog();
        boolean tooOld = now.oldestPendingAge().compareTo(limits.maxOldestPendingAge()) > 0;
        (tooMany || tooOld ? health.down() : health.up())
                .withDetail("backlog", now.waiting())
                .withDetail("maxBacklog", limits.maxBacklog())
                .withDetail("pending", now.pending())
                .withDetail("oldestPendingAge", now.oldestPendingAge().toString())
                .withDetail("maxOldestPendingAge", limits.maxOldestPendingAge().toString())
                .withDetail("deadLetters", now.deadLetters())
                .withDetail("readAt", now.readAt().toString());
    }
}
