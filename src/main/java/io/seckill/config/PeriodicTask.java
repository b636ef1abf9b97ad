package io.seckill.config;

import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * A task run on a daemon thread of its own, at a fixed delay, until stopped: the renewals of a lease in Redis
 * (io.seckill.redis.LeaseRenewals) and the compaction of an H2 file ({@link H2Compaction}).
 */
public final class PeriodicTask {

    private final String threadName;
    private volatile ScheduledExecutorService executor;

    /** @param threadName the name of its thread, as thread dumps and profiles show it */
    public PeriodicTask(String threadName) {
        this.threadName = threadName;
    }

    /** Runs {@code task} every {@code period}, the first time one period from now. */
    public synchronized void start(Duration period, Runnable task) {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread thread = new Thread(runnable, threadName);
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(task, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /**
     * Runs it no more. A run in flight finishes first (for at most {@code wait}), so that none follows what the caller
     * does next.
     *
     * @return whether it was running
     */
    public synchronized boolean stop(Duration wait) {
        if (executor == null) {
            return false;
        }
        executor.shutdown();
        try {
            executor.awaitTermination(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        executor = null;
        return true;
    }

    public boolean running() {
        return executor != null;
    }
}
