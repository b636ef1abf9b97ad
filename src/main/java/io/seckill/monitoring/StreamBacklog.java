package io.seckill.monitoring;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.api.async.RedisStreamAsyncCommands;
import io.lettuce.core.models.stream.PendingMessages;
import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * How far the order writers are behind, read from Redis for the gauges and the readiness check. One reading costs
 * three O(1) commands per shard (XLEN, XPENDING summary, XLEN of the dead letters), sent together as one pipelined
 * round; it is kept for {@code seckill.metrics.backlog-refresh}, so however often Prometheus scrapes and the
 * readiness probe asks, Redis is asked at most once per interval. A failed reading is kept as long, so an
 * unreachable Redis is not hammered either. Ages compare the Redis clock (the entry id) with this JVM's.
 */
@Component
public class StreamBacklog {

    /** The commands are O(1): an answer slower than this means Redis is down or drowning. */
    private static final Duration READ_TIMEOUT = Duration.ofSeconds(2);

    private final RedisConnectionFactory connectionFactory;
    private final RedisKeys keys;
    private final String group;
    private final Duration refresh;
    private final Clock clock;
    private Backlog last;

    @Autowired
    public StreamBacklog(RedisConnectionFactory connectionFactory, RedisKeys keys, StreamProperties stream,
            MetricsProperties metrics) {
        this(connectionFactory, keys, stream, metrics, Clock.systemUTC());
    }

    StreamBacklog(RedisConnectionFactory connectionFactory, RedisKeys keys, StreamProperties stream,
            MetricsProperties metrics, Clock clock) {
        this.connectionFactory = connectionFactory;
        this.keys = keys;
        this.group = stream.group();
        this.refresh = metrics.backlogRefresh();
        this.clock = clock;
    }

    /** The latest reading, read anew when it is older than the refresh interval. */
    public synchronized Backlog current() {
        Instant now = clock.instant();
        if (last == null || !now.isBefore(last.readAt().plus(refresh))) {
            last = read(now);
        }
        return last;
    }

    private Backlog read(Instant now) {
        List<String> streams = keys.orderStreams();
        try (RedisConnection connection = connectionFactory.getConnection()) {
            @SuppressWarnings("unchecked")
            RedisStreamAsyncCommands<byte[], byte[]> commands =
                    (RedisStreamAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
            List<RedisFuture<Long>> lengths = new ArrayList<>(streams.size());
            List<RedisFuture<PendingMessages>> pendings = new ArrayList<>(streams.size());
            List<RedisFuture<Long>> deadLengths = new ArrayList<>(streams.size());
            for (String stream : streams) {
                lengths.add(commands.xlen(bytes(stream)));                          // XLEN key
                pendings.add(commands.xpending(bytes(stream), bytes(group)));        // XPENDING key group
                deadLengths.add(commands.xlen(bytes(keys.deadLettersOf(stream)))); // XLEN key:dead
            }
            List<ShardBacklog> shards = new ArrayList<>(streams.size());
            for (int shard = 0; shard < streams.size(); shard++) {
                long length = await(lengths.get(shard));
                PendingMessages pending = pending(pendings.get(shard));
                shards.add(new ShardBacklog(shard, length, pending == null ? 0 : pending.getCount(),
                        oldestAge(pending, now), await(deadLengths.get(shard))));
            }
            return new Backlog(now, shards, null);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return Backlog.failed(now, e.getMessage() == null ? e.getClass().getName() : e.toString());
        }
    }

    /** Null when nothing is pending, or when no consumer has created the group yet (NOGROUP). */
    private static PendingMessages pending(RedisFuture<PendingMessages> future) throws Exception {
        try {
            PendingMessages pending = future.get(READ_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            return pending == null || pending.getCount() == 0 ? null : pending;
        } catch (ExecutionException e) {
            if (String.valueOf(e.getCause()).contains("NOGROUP")) {
                return null;
            }
            throw e;
        }
    }

    /** A stream id starts with the milliseconds of the XADD, that is of the order's acceptance. */
    private static Duration oldestAge(PendingMessages pending, Instant now) {
        if (pending == null || pending.getMessageIds() == null || pending.getMessageIds().getLower() == null) {
            return Duration.ZERO;
        }
        String oldestId = pending.getMessageIds().getLower().getValue();
        long acceptedAt = Long.parseLong(oldestId.substring(0, oldestId.indexOf('-')));
        return Duration.ofMillis(Math.max(0, now.toEpochMilli() - acceptedAt));
    }

    private static long await(RedisFuture<Long> future) throws Exception {
        Long value = future.get(READ_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        return value == null ? 0 : value;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
