package io.seckill.bench;

import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The drain of a backlog: starts the (stopped) writer route, then reads XLEN every 100 ms until the stream is
 * empty. The writer acknowledges with XACK + XDEL only after the batch's rows are committed, so an empty stream
 * means every order is in the database.
 *
 * <pre>drain PID REDIS_PORT STREAM EXPECTED ROUTE_ID</pre>
 */
final class BacklogDrain {

    private BacklogDrain() {
    }

    static void run(String[] args) throws Exception {
        String pid = args[0];
        int redisPort = Integer.parseInt(args[1]);
        String stream = args[2];
        long expected = Long.parseLong(args[3]);
        String routeId = args[4];
        try (RespConnection redis = new RespConnection(redisPort)) {
            long backlog = redis.integer("XLEN", stream);
            if (backlog != expected) {
                throw new IllegalStateException("backlog is " + backlog + " entries, expected " + expected);
            }
            long start = System.nanoTime();
            RouteSwitch.invoke(pid, routeId, "start");
            long length = backlog;
            long halfAt = 0;
            long deadline = start + TimeUnit.MINUTES.toNanos(30);
            while (length > 0) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("stream still holds " + length + " entries after 30 minutes");
                }
                Thread.sleep(100);
                length = redis.integer("XLEN", stream);
                if (halfAt == 0 && length <= backlog / 2) {
                    halfAt = System.nanoTime();
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double secondHalf = (System.nanoTime() - halfAt) / 1e9;
            ResultLines.print("drain_orders", backlog);
            ResultLines.print("drain_seconds", String.format(Locale.ROOT, "%.2f", seconds));
            ResultLines.print("drain_rate", ResultLines.perSecond(backlog / seconds));
            // The second half runs on a warmed-up JIT; the whole includes the first batches' compilation.
            ResultLines.print("drain_rate_second_half", ResultLines.perSecond((backlog - backlog / 2) / secondHalf));
        }
    }
}
