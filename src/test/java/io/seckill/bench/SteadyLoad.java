package io.seckill.bench;

import java.io.IOException;
import java.net.URI;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * Orders at a steady rate through the service's API ({@link OpenLoop}): POST latency from each request's due time,
 * and for one order in SAMPLE_EVERY, pollers GET /api/orders/{id} every POLL_MS from its 202 until it answers 200:
 * the time from the 202 to the row in the database, an upper bound within one poll interval.
 *
 * <pre>load URL VOUCHER RATE SECONDS MIN_WARM_UP MAX_WARM_UP SAMPLE_EVERY POLL_MS CONNECTIONS</pre>
 */
final class SteadyLoad {

    private static final long SAMPLE_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final int POLLERS = 2;

    /**
     * An order of USER_ID followed to its row; SECOND: the load's second its request was due in; MEASURED: false for
     * the warm-up's, followed only to warm the GET path.
     */
    private record Sample(String orderId, long userId, int second, long acceptedAt, long due, boolean measured)
            implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(due - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(due, ((Sample) other).due);
        }

        Sample pollAgainAt(long at) {
            return new Sample(orderId, userId, second, acceptedAt, at, measured);
        }
    }

    private SteadyLoad() {
    }

    static void run(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        long voucherId = Long.parseLong(args[1]);
        long rate = Long.parseLong(args[2]);
        int seconds = Integer.parseInt(args[3]);
        int minWarmUpSeconds = Integer.parseInt(args[4]);
        int maxWarmUpSeconds = Integer.parseInt(args[5]);
        int sampleEvery = Integer.parseInt(args[6]);
        long pollNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[7]));
        int connections = Integer.parseInt(args[8]);

        // The 202s' latencies, warm-up too: the percentiles are the measured seconds', the picture shows every second.
        LatencyTimeline post = new LatencyTimeline(maxWarmUpSeconds + seconds);
        // By second of the POST's due time: 202 -> row of the measured orders (a failure: one never seen).
        LatencyTimeline endToEnd = new LatencyTimeline(maxWarmUpSeconds + seconds);
        OutcomeCounts outcomes = new OutcomeCounts();
        LongAdder unseen = new LongAdder();
        DelayQueue<Sample> samples = new DelayQueue<>();
        OpenLoop<HttpConnection> senders = new OpenLoop<>(rate, minWarmUpSeconds, maxWarmUpSeconds, seconds,
                connections, () -> new HttpConnection(url),
                (http, i, due, measured) -> {
            long userId = i + 1;
            HttpConnection.Response response = http.postOrder(voucherId, userId);
            long answered = System.nanoTime();
            int second = (int) (i / rate);
            if (measured) {
                outcomes.add(response.outcome());
            }
            if (response.status() == 202) {
                post.record(second, answered - due);
            }
            // The warm-up's orders are followed too, unmeasured: GET /api/orders/{id} is a path wrk never takes,
            // and left cold it stalled the first seconds of the measured minute (its p99 on netty-http: 1.3 s).
            if (response.status() == 202 && i % sampleEvery == 0) {
                samples.add(new Sample(response.orderId(), userId, second, answered, answered, measured));
            }
        });
        ExecutorService pollers = Executors.newFixedThreadPool(POLLERS);
        for (int p = 0; p < POLLERS; p++) {
            pollers.submit(() -> {
                try (HttpConnection http = new HttpConnection(url)) {
                    while (!senders.done() || !samples.isEmpty()) {
                        Sample sample = samples.poll(100, TimeUnit.MILLISECONDS);
                        if (sample != null) {
                            follow(http, sample, samples, pollNanos, endToEnd, unseen);
                        }
                    }
                }
                return null;
            });
        }
        double elapsed = senders.await();
        pollers.shutdown();
        pollers.awaitTermination(SAMPLE_DEADLINE_NANOS + TimeUnit.SECONDS.toNanos(10), TimeUnit.NANOSECONDS);

        int from = senders.warmUpSeconds();
        int to = senders.endSecond();
        long accepted = outcomes.count("202");
        senders.print("load", elapsed);
        ResultLines.print("load_accepted", accepted);
        ResultLines.print("load_not_202", senders.total() - accepted - senders.failures());
        outcomes.print("load");
        post.printPercentiles("post", from, to);
        // Every second of the schedule that ran, warm-up first (load_warm_up_seconds of them): the picture's.
        ResultLines.print("post_count_by_second", post.countsBySecond(0, to));
        ResultLines.print("post_p99_ms_by_second", post.p99MillisBySecond(0, to));
        endToEnd.printPercentiles("e2e", from, to);
        ResultLines.print("e2e_unseen", unseen.sum());
        ResultLines.print("e2e_worst_ms_by_second", endToEnd.worstMillisBySecond(from, to));
    }

    /** One poll of a sample: its row seen, given up on after SAMPLE_DEADLINE, or polled again POLL_NANOS later. */
    private static void follow(HttpConnection http, Sample sample, DelayQueue<Sample> samples, long pollNanos,
            LatencyTimeline endToEnd, LongAdder unseen) {
        HttpConnection.Response response;
        try {
            response = http.getOrder(sample.orderId(), sample.userId());
        } catch (IOException e) {
            response = new HttpConnection.Response(-1, "");
        }
        long now = System.nanoTime();
        if (response.status() == 200) {
            if (sample.measured()) {
                endToEnd.record(sample.second(), now - sample.acceptedAt());
            }
        } else if (now - sample.acceptedAt() > SAMPLE_DEADLINE_NANOS) {
            if (sample.measured()) {
                unseen.increment();
                endToEnd.fail(sample.second());
            }
        } else {
            samples.add(sample.pollAgainAt(now + pollNanos));
        }
    }
}
