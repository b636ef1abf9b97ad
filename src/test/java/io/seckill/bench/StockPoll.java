package io.seckill.bench;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;

/**
 * A voucher's stock read every 5 ms with Redis's own clock, one {@code MILLIS STOCK} line per reading, on a thread of
 * its own and a connection of its own: the time from beginAt to sold out is then Redis's, not this machine's view of
 * it through a loaded HTTP path.
 */
final class StockPoll implements AutoCloseable {

    private static final String READ = "local t = redis.call('TIME') "
            + "return (t[1] * 1000 + math.floor(t[2] / 1000)) .. ' ' .. redis.call('HGET', KEYS[1], 'stock')";
    private static final long INTERVAL_MILLIS = 5;

    private final Thread thread;
    private volatile boolean stopped;
    private volatile Exception failure;

    /** Starts polling KEY (the voucher's hash) into OUTPUT, for at most MAX_SECONDS. */
    StockPoll(ServiceProcess service, String key, Path output, int maxSeconds) {
        thread = new Thread(() -> poll(service, key, output, maxSeconds * 1000L / INTERVAL_MILLIS), "stock-poll");
        thread.start();
    }

    private void poll(ServiceProcess service, String key, Path output, long readings) {
        try (RespConnection redis = service.redis(); PrintWriter out = new PrintWriter(Files.newBufferedWriter(output))) {
            for (long i = 0; i < readings && !stopped; i++) {
                out.println(redis.call("EVAL", READ, "1", key));
                Thread.sleep(INTERVAL_MILLIS);
            }
        } catch (IOException | InterruptedException e) {
            failure = e;
        }
    }

    /** Redis's clock in milliseconds. */
    static long redisMillis(ServiceProcess service) throws IOException {
        try (RespConnection redis = service.redis()) {
            return (Long) redis.call("EVAL",
                    "local t = redis.call('TIME') return t[1] * 1000 + math.floor(t[2] / 1000)", "0");
        }
    }

    /** The time of the first reading with no stock left, from a poll's lines; empty when it never sold out. */
    static OptionalLong soldOutMillis(List<String> lines) {
        for (String line : lines) {
            String[] fields = line.strip().split(" ");
            if (fields.length == 2 && fields[1].equals("0")) {
                return OptionalLong.of(Long.parseLong(fields[0]));
            }
        }
        return OptionalLong.empty();
    }

    @Override
    public void close() throws InterruptedException {
        stopped = true;
        thread.join();
        if (failure != null) {
            throw new UncheckedIOException(new IOException("the stock poll failed", failure));
        }
    }
}
