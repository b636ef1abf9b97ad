package io.seckill.redis;

import io.seckill.config.PeriodicTask;
import java.time.Duration;

/**
 * The thread that keeps a lease in Redis alive ({@link ConsumerNameLease}, the order-id worker number): renews it
 * every third of its ttl, so two renewals can fail before it lapses, until stopped.
 */
public final class LeaseRenewals {

    private static final Duration RENEWAL_IN_FLIGHT = Duration.ofSeconds(5);

    private final PeriodicTask task;

    public LeaseRenewals(String threadName) {
        this.task = new PeriodicTask(threadName);
    }

    public void start(Duration ttl, Runnable renew) {
        task.start(ttl.dividedBy(3), renew);
    }

    /**
     * Stops renewing. A renewal in flight finishes first, so none can follow the release the caller does next.
     *
     * @return whether it was renewing
     */
    public boolean stop() {
        return task.stop(RENEWAL_IN_FLIGHT);
    }

    public boolean running() {
        return task.running();
    }
}
