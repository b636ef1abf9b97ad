package io.seckill.redis;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The thread that keeps a lease in Redis alive ({@link ConsumerNameLease}, the order-id worker number): renews it
 * every third of its ttl, so two renewals can fail before it lapses, until stopped.
 */
public final class LeaseRenewals {

    private final String threadName;
    private volatile ScheduledExecutorService renewals;

    public LeaseRenewals(String threadName) {
        this.threadName = threadName;
    }

    public synchronized void start(Duration ttl, Runnable renew) {
        renewals = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, threadName);
            thread.setDaemon(true);
            return thread;
        });
        long period = ttl.toMillis() / 3;
        renewals.scheduleWithFixedDelay(renew, period, period, TimeUnit.MILLISECONDS);
    }

    /**
     * Stops renewing. A renewal in flight finishes first, so none can follow the release the caller does next.
     *
     * @return whether it was renewing
     */
    public synchronized boolean stop() {
        if (renewals == null) {
            return false;
        }
        renewals.shutdown();
        try {
            renewals.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        renewals = null;
        return true;
    }

    public boolean running() {
        return renewals != null;
    }
}
