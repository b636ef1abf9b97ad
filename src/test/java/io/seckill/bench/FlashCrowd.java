package io.seckill.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A flash crowd: REQUESTS orders from BUYERS buyers drawn at random (so most buyers come back several times), on
 * CONCURRENCY connections, as fast as the service answers (a closed loop: no latency is reported, only the answers
 * and the rate). Writes each accepted order as orderId,userId to FILE.
 *
 * <pre>flash URL VOUCHER REQUESTS BUYERS CONCURRENCY SEED FILE</pre>
 */
final class FlashCrowd {

    private FlashCrowd() {
    }

    static void run(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        long voucherId = Long.parseLong(args[1]);
        int requests = Integer.parseInt(args[2]);
        int buyers = Integer.parseInt(args[3]);
        int concurrency = Integer.parseInt(args[4]);
        long seed = Long.parseLong(args[5]);
        Path acceptedFile = Path.of(args[6]);

        AtomicInteger next = new AtomicInteger();
        OutcomeCounts outcomes = new OutcomeCounts();
        ConcurrentLinkedQueue<String> accepted = new ConcurrentLinkedQueue<>();
        ExecutorService crowd = Executors.newFixedThreadPool(concurrency);
        long start = System.nanoTime();
        for (int t = 0; t < concurrency; t++) {
            Random random = new Random(seed + t);
            crowd.submit(() -> {
                try (HttpConnection http = new HttpConnection(url)) {
                    while (next.getAndIncrement() < requests) {
                        long buyer = 1 + random.nextInt(buyers);
                        String outcome;
                        try {
                            HttpConnection.Response response = http.postOrder(voucherId, buyer);
                            outcome = response.outcome();
                            if (response.status() == 202) {
                                accepted.add(response.orderId() + "," + buyer);
                            }
                        } catch (IOException e) {
                            outcome = "io_error";
                        }
                        outcomes.add(outcome);
                    }
                }
                return null;
            });
        }
        crowd.shutdown();
        crowd.awaitTermination(1, TimeUnit.HOURS);
        double seconds = (System.nanoTime() - start) / 1e9;
        Files.write(acceptedFile, accepted);

        ResultLines.print("flash_requests", requests);
        ResultLines.print("flash_seconds", String.format(Locale.ROOT, "%.1f", seconds));
        ResultLines.print("flash_rate", ResultLines.perSecond(requests / seconds));
        ResultLines.print("flash_accepted", accepted.size());
        outcomes.print("flash");
    }
}
