package io.seckill.config;

import io.seckill.config.EmbeddedRedisProperties.AofRewrite;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Has the embedded Redis rewrite its append-only file while the intake is quiet, rather than in the middle of a sale.
 *
 * <p>The file grows with every write, about 775 bytes an accepted order (the stream entry, the {@code XCLAIM} Redis
 * records for each entry a reader is handed, the due set, the buyer), and a rewrite writes the whole dataset anew
 * from a forked child that holds a CPU and the disk for seconds. Left to Redis (64 MB, and doubled since the last
 * rewrite), one came every 60,000–90,000 orders through a long sale, and each filled its seconds with answers of
 * 100–800 ms (bench/runs/2026-11-29-quiet-aof-rewrites.md). Here, once a second: when the file is
 * {@code min-size} or more and has doubled since its last rewrite, the service asks for one ({@code BGREWRITEAOF}) as
 * soon as the file has grown by less than {@code quiet-below} a second for {@code quiet-for}. Redis keeps its own
 * rule for {@code max-size}, given at its start ({@link EmbeddedRedis}), busy or not: that bounds the disk the file
 * takes and how long a restart replays it.
 */
public class QuietAofRewrites implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(QuietAofRewrites.class);
    private static final Duration PERIOD = Duration.ofSeconds(1);
    private static final long MB = 1024 * 1024;

    private final StringRedisTemplate redis;
    private final long minSize;
    private final long quietBelowPerSecond;
    private final long quietForNanos;
    private final PeriodicTask checks = new PeriodicTask("aof-rewrite-check");
    /** The file's size at the last check and when it was read; -1 before the first. Only the task's thread uses them. */
    private long lastSize = -1;
    private long lastCheckNanos;
    /** When the file last grew at least {@code quiet-below} a second (or a rewrite was asked for). */
    private long lastBusyNanos;
    private boolean failing;

    public QuietAofRewrites(StringRedisTemplate redis, AofRewrite settings) {
        this.redis = redis;
        this.minSize = settings.minSize().toBytes();
        this.quietBelowPerSecond = settings.quietBelow().toBytes();
        this.quietForNanos = settings.quietFor().toNanos();
    }

    void check() {
        Properties persistence;
        try {
            // INFO persistence
            persistence = redis.execute((RedisCallback<Properties>) connection ->
                    connection.serverCommands().info("persistence"));
        } catch (RuntimeException e) {
            // Redis down or restarting: its supervisor and health say so; the next check asks again.
            if (!failing && RedisOutage.behind(e).isEmpty()) {
                log.warn("Could not read the embedded Redis's append-only file size: {}", e.toString());
            }
            failing = true;
            return;
        }
        failing = false;
        long size = number(persistence, "aof_current_size");
        long base = number(persistence, "aof_base_size");
        long now = System.nanoTime();
        if (lastSize < 0 || (size - lastSize) * TimeUnit.SECONDS.toNanos(1)
                >= quietBelowPerSecond * Math.max(1, now - lastCheckNanos)) {
            lastBusyNanos = now;
        }
        lastSize = size;
        lastCheckNanos = now;
        boolean rewriting = number(persistence, "aof_rewrite_in_progress") > 0
                || number(persistence, "aof_rewrite_scheduled") > 0;
        if (!rewriting && size >= minSize && size - base >= base && now - lastBusyNanos >= quietForNanos) {
            // Asked again after another quiet-for at the earliest, whether this one is refused or not.
            lastBusyNanos = now;
            rewrite(size, base);
        }
    }

    /** Never throws: an exception would end the periodic task for good. */
    private void rewrite(long size, long base) {
        try {
            // BGREWRITEAOF
            redis.execute((RedisCallback<Void>) connection -> {
                connection.serverCommands().bgReWriteAof();
                return null;
            });
        } catch (RuntimeException e) {
            // Refused (an operator's refused-commands), or a fork that failed: Redis's own rule still applies.
            log.warn("The embedded Redis did not rewrite its append-only file of {} MB: {}", size / MB,
                    NestedExceptionUtils.getMostSpecificCause(e).getMessage());
            return;
        }
        log.info("The embedded Redis's append-only file is {} MB ({} MB after its last rewrite) and has grown by "
                + "less than {} KB a second for {} s: rewriting it now", size / MB, base / MB,
                quietBelowPerSecond / 1024, TimeUnit.NANOSECONDS.toSeconds(quietForNanos));
    }

    private static long number(Properties info, String field) {
        String value = info.getProperty(field);
        return value == null ? 0 : Long.parseLong(value.trim());
    }

    @Override
    public void start() {
        checks.start(PERIOD, this::check);
    }

    @Override
    public void stop() {
        checks.stop(PERIOD);
    }

    @Override
    public boolean isRunning() {
        return checks.running();
    }
}
