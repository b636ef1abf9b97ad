package io.seckill.support;

import java.io.IOException;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every command Redis executes while it is open, as MONITOR prints them ({@code +<time> [0 <client>] "evalsha"
 * "<sha>" "6" "seckill:{s0}:voucher:3" …}), on a connection of its own: a test proves that a request did not
 * reach Redis by the command lines that never came.
 */
public final class RedisMonitor implements AutoCloseable {

    private final RawRedis redis;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private RedisMonitor(RawRedis redis) {
        this.redis = redis;
        this.reader = new Thread(this::read, "redis-monitor");
        this.reader.setDaemon(true);
    }

    /** Returns once Redis confirmed the MONITOR: every command from then on is seen. */
    public static RedisMonitor start(int port, String password) {
        RawRedis redis = RawRedis.connect(port).authenticate(password);
        String ok = redis.call("MONITOR");
        if (!"+OK".equals(ok)) {
            redis.close();
            throw new IllegalStateException("MONITOR answered " + ok);
        }
        RedisMonitor monitor = new RedisMonitor(redis);
        monitor.reader.start();
        return monitor;
    }

    private void read() {
        try {
            for (String line = redis.readLine(); line != null; line = redis.readLine()) {
                lines.add(line);
            }
        } catch (IOException closed) {
            // closed by close()
        }
    }

    /** The commands seen so far that name this key (as an argument in quotes). */
    public long commandsNaming(String key) {
        String quoted = "\"" + key + "\"";
        return lines.stream().filter(line -> line.contains(quoted)).count();
    }

    /** The scripts run so far ({@code EVALSHA}, {@code EVAL}) that name this key. */
    public long scriptsNaming(String key) {
        String quoted = "\"" + key + "\"";
        return lines.stream().filter(line -> line.contains(quoted)).map(line -> line.toLowerCase(Locale.ROOT))
                .filter(line -> line.contains("] \"evalsha\"") || line.contains("] \"eval\"")).count();
    }

    @Override
    public void close() {
        redis.close();
    }
}
