package io.seckill.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.config.EmbeddedRedis;
import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.stream.Consumer;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.RecordId;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.connection.stream.StreamReadOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/** {@link StreamBacklog} against a real Redis: what it counts, how it ages entries, how long it keeps a reading. */
class StreamBacklogIntegrationTests {

    private static final String ORDERS = "seckill:{s0}:orders";
    private static final String DEAD = "seckill:{s0}:orders:dead";
    private static final String GROUP = "order-writers";
    private static final Duration REFRESH = Duration.ofSeconds(5);

    @TempDir
    static Path dataDir;

    static EmbeddedRedis server;
    static LettuceConnectionFactory connections;
    static StringRedisTemplate redis;

    final AtomicReference<Instant> now = new AtomicReference<>(Instant.ofEpochMilli(1_000_000));
    StreamBacklog backlog;

    @BeforeAll
    static void startRedis() {
        server = EmbeddedRedis.start(0, dataDir);
        RedisStandaloneConfiguration address = new RedisStandaloneConfiguration("127.0.0.1", server.port());
        address.setPassword(server.password());
        connections = new LettuceConnectionFactory(address);
        connections.afterPropertiesSet();
        connections.start();
        redis = new StringRedisTemplate(connections);
    }

    @AfterAll
    static void stopRedis() {
        connections.destroy();
        server.close();
    }

    @BeforeEach
    void emptyStreams() {
        redis.delete(List.of(ORDERS, DEAD));
        StreamProperties stream = new StreamProperties(1, GROUP, "test", 100, 100, 1);
        backlog = new StreamBacklog(connections, new RedisKeys(stream), stream, new MetricsProperties(REFRESH, Duration.ofSeconds(5)),
                clock());
    }

    @Test
    void countsWaitingPendingUnreadAndDeadEntriesAndAgesTheOldestPendingOne() {
        // XGROUP CREATE … MKSTREAM, then XADD with ids whose milliseconds are the acceptance times
        redis.opsForStream().createGroup(ORDERS, ReadOffset.from("0"), GROUP);
        add(ORDERS, "940000-0");
        add(ORDERS, "950000-0");
        add(ORDERS, "990000-0");
        // XREADGROUP COUNT 2: two entries delivered and not acknowledged
        redis.opsForStream().read(Consumer.from(GROUP, "writer"), StreamReadOptions.empty().count(2),
                StreamOffset.create(ORDERS, ReadOffset.lastConsumed()));
        add(DEAD, "960000-0");

        ShardBacklog shard = backlog.current().shard(0).orElseThrow();

        assertThat(shard.length()).isEqualTo(3);
        assertThat(shard.pending()).isEqualTo(2);
        assertThat(shard.lag()).isEqualTo(1);
        assertThat(shard.oldestPendingAge()).isEqualTo(Duration.ofSeconds(60));
        assertThat(shard.deadLetters()).isEqualTo(1);
    }

    @Test
    void streamWithoutGroupHasNothingPending() {
        // XPENDING on a stream no consumer has created the group of answers NOGROUP
        add(ORDERS, "990000-0");

        Backlog reading = backlog.current();

        assertThat(reading.isRead()).isTrue();
        assertThat(reading.waiting()).isEqualTo(1);
        assertThat(reading.pending()).isZero();
        assertThat(reading.oldestPendingAge()).isZero();
    }

    @Test
    void readingIsKeptForTheRefreshIntervalThenReadAnew() {
        add(ORDERS, "990000-0");
        assertThat(backlog.current().waiting()).isEqualTo(1);
        add(ORDERS, "990001-0");

        now.set(now.get().plus(REFRESH).minusMillis(1));
        assertThat(backlog.current().waiting()).isEqualTo(1);

        now.set(now.get().plusMillis(1));
        assertThat(backlog.current().waiting()).isEqualTo(2);
    }

    @Test
    void unreachableRedisGivesAFailedReadingNotAnException() {
        LettuceConnectionFactory nowhere = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration("127.0.0.1", 1));
        nowhere.afterPropertiesSet();
        nowhere.start();
        try {
            StreamProperties stream = new StreamProperties(1, GROUP, "test", 100, 100, 1);
            Backlog reading = new StreamBacklog(nowhere, new RedisKeys(stream), stream,
                    new MetricsProperties(REFRESH, Duration.ofSeconds(5)), clock()).current();

            assertThat(reading.isRead()).isFalse();
            assertThat(reading.failure()).isNotBlank();
            assertThat(reading.shard(0)).isEmpty();
        } finally {
            nowhere.destroy();
        }
    }

    private Clock clock() {
        return new Clock() {
            @Override
            public Instant instant() {
                return now.get();
            }

            @Override
            public ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(ZoneId zone) {
                return this;
            }
        };
    }

    private static void add(String stream, String id) {
        // XADD key id field value
        redis.opsForStream().add(MapRecord.create(stream, Map.of("orderId", "1")).withId(RecordId.of(id)));
    }
}
