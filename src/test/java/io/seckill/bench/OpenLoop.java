package io.seckill.bench;

import java.io.Closeable;
import java.io.IOException;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;

/**
 * Requests at a steady rate (open loop): request i is due at start + i / RATE and is sent when it is due, whatever
 * the answers before it, from CONNECTIONS threads with a connection each; its latency counts from when it was due,
 * so a stall cannot hide the requests queued behind it (wrk2's method; wrk2 is not in Debian). A request that fails
 * with an IOException counts as a failure.
 *
 * <p>The measured SECONDS come after a warm-up of the same schedule, unmeasured, that lasts until the load is
 * steady: at least MIN_WARM_UP seconds, then until STEADY_SECONDS seconds in a row each had every request answered
 * within STEADY_MILLIS of its due time, at most MAX_WARM_UP seconds (then the minute is measured anyway and
 * {@code *_warm_up_steady} says false). A steady state is what is measured, and a cold start is not one: the
 * service compiles the paths wrk's warm-up did not take then (GET /api/orders/{id}: its compiler threads went from
 * about 10 to 320-400 ms of CPU a second), and the generator's JVM its own request path. On 2 shared CPUs the first
 * 4 to 25 s of a load had POSTs 3 to 10 times slower than the rest, more than the 1 % a p99 leaves out; a fixed 15 s
 * was not always enough (netty-http, git effcd68). The worst latency of each second, warm-up and minute, is printed:
 * what the warm-up left out is in the log.
 */
final class OpenLoop<C extends Closeable> {

    static final int STEADY_SECONDS = 5;
    static final long STEADY_MILLIS = 100;

    interface Request<C> {
        /** MEASURED: false for the warm-up's requests, whose answers count nowhere. */
        void send(C connection, long request, long due, boolean measured) throws IOException;
    }

    private final ExecutorService threads;
    private final long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
    private final long rate;
    private final long seconds;
    private final int maxWarmUpSeconds;
    /** The first measured request; lowered once by the warm-up's watcher, always to a second not yet due. */
    private volatile long measuredFrom;
    private volatile boolean steady;
    private final LongAdder failures = new LongAdder();
    private final LongAdder warmUpFailures = new LongAdder();
    /** Every request's latency by second of its due time, whatever its answer: the warm-up's watcher judges it. */
    private final LatencyTimeline answered;

    OpenLoop(long rate, int minWarmUpSeconds, int maxWarmUpSeconds, long seconds, int connections,
            Callable<C> connect, Request<C> request) {
        this.rate = rate;
        this.seconds = seconds;
        this.maxWarmUpSeconds = maxWarmUpSeconds;
        this.measuredFrom = rate * maxWarmUpSeconds;
        this.answered = new LatencyTimeline(scheduleSeconds());
        AtomicLong next = new AtomicLong();
        threads = Executors.newFixedThreadPool(connections);
        for (int c = 0; c < connections; c++) {
            threads.submit(() -> {
                try (C connection = connect.call()) {
                    for (long i = next.getAndIncrement(); i < measuredFrom + total(); i = next.getAndIncrement()) {
                        long due = dueNanos(i);
                        for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                            LockSupport.parkNanos(wait);
                        }
                        // Read once the request is due: the watcher only moves measuredFrom to a second not due yet.
                        boolean measured = i >= measuredFrom;
                        try {
                            request.send(connection, i, due, measured);
                            answered.record(second(i), System.nanoTime() - due);
                        } catch (IOException e) {
                            (measured ? failures : warmUpFailures).increment();
                            answered.fail(second(i));
                        }
                    }
                }
                return null;
            });
        }
        threads.shutdown();
        Thread watcher = new Thread(() -> watchWarmUp(minWarmUpSeconds), "warm-up-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    /**
     * Ends the warm-up at the first second boundary after MIN_WARM_UP seconds at which the last STEADY_SECONDS were
     * steady. Second s is judged STEADY_MILLIS after its last request was due: by then a steady second has all its
     * answers, and an answer still missing is already later than that.
     */
    private void watchWarmUp(int minWarmUpSeconds) {
        int inARow = 0;
        long limit = TimeUnit.MILLISECONDS.toNanos(STEADY_MILLIS);
        for (int second = 0; ; second++) {
            long judgeAt = start + (second + 1) * 1_000_000_000L + limit;
            for (long wait = judgeAt - System.nanoTime(); wait > 0; wait = judgeAt - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            inARow = answered.count(second) == rate && answered.worstNanos(second) < limit ? inARow + 1 : 0;
            // Two seconds ahead: the one now running may have requests in hand already.
            long from = (System.nanoTime() - start) / 1_000_000_000L + 2;
            if (from >= maxWarmUpSeconds) {
                return;
            }
            if (inARow >= STEADY_SECONDS && from >= minWarmUpSeconds) {
                measuredFrom = from * rate;
                steady = true;
                return;
            }
        }
    }

    /** The second of the schedule request I is due in, from 0 (the warm-up's first). */
    private int second(long request) {
        return (int) (request / rate);
    }

    /** The seconds the schedule can run: the longest warm-up and the measured ones. */
    int scheduleSeconds() {
        return (int) (maxWarmUpSeconds + seconds);
    }

    /** The warm-up's seconds, once {@link #await()} returned: the first measured second. */
    int warmUpSeconds() {
        return (int) (measuredFrom / rate);
    }

    /** The seconds after the measured ones: the end of the schedule that ran. */
    int endSecond() {
        return (int) (warmUpSeconds() + seconds);
    }

    private long dueNanos(long request) {
        return start + request * 1_000_000_000L / rate;
    }

    /** The measured requests. */
    long total() {
        return rate * seconds;
    }

    long failures() {
        return failures.sum();
    }

    boolean done() {
        return threads.isTerminated();
    }

    /** Waits for the last request's answer; the seconds from the first measured request's due time. */
    double await() throws InterruptedException {
        threads.awaitTermination(scheduleSeconds() + seconds + 600, TimeUnit.SECONDS);
        return (System.nanoTime() - dueNanos(measuredFrom)) / 1e9;
    }

    void print(String prefix, double elapsed) {
        // The measured part's start by the clock, for run.sh to pick what Redis and the JVM logged meanwhile.
        ResultLines.print(prefix + "_measured_from_ms",
                System.currentTimeMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - dueNanos(measuredFrom)));
        ResultLines.print(prefix + "_warm_up_seconds", warmUpSeconds());
        ResultLines.print(prefix + "_warm_up_steady", steady);
        ResultLines.print(prefix + "_warm_up_sent", measuredFrom);
        ResultLines.print(prefix + "_warm_up_failures", warmUpFailures.sum());
        ResultLines.print(prefix + "_sent", total());
        ResultLines.print(prefix + "_rate_asked", rate);
        ResultLines.print(prefix + "_rate_done", ResultLines.perSecond(total() / elapsed));
        ResultLines.print(prefix + "_failures", failures());
        // The worst answer of each second (-1: a request failed): a p99 says how late, this says when, and whether
        // it was one long stall or many short ones.
        ResultLines.print(prefix + "_worst_ms_by_second_warm_up", answered.worstMillisBySecond(0, warmUpSeconds()));
        ResultLines.print(prefix + "_worst_ms_by_second", answered.worstMillisBySecond(warmUpSeconds(), endSecond()));
    }
}
