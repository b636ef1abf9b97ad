package io.seckill.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.EmbeddedRedis;
import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient.Answer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Redis comes back with an older copy of its data while the database holds the orders it forgot: the
 * append-only file is copied aside, more orders are taken and written, the copy is put back and Redis restarted
 * on it, as a restore from a backup or a replica that had not caught up would leave it.
 */
public final class OlderRedisCopy {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    private final ApiClient api;
    private final EmbeddedRedis embedded;
    private final StringRedisTemplate redis;
    private final JdbcTemplate jdbc;
    private final RedisKeys keys;

    public OlderRedisCopy(ApiClient api, EmbeddedRedis embedded, StringRedisTemplate redis, JdbcTemplate jdbc,
            RedisKeys keys) {
        this.api = api;
        this.embedded = embedded;
        this.redis = redis;
        this.jdbc = jdbc;
        this.keys = keys;
    }

    public void run() throws IOException {
        long voucher = api.createVoucher(10);
        api.orderAccepted(voucher, 1, 2, 3);
        await().atMost(DEADLINE).until(() -> rows(voucher) == 3 && quiet(voucher));

        Path aside = Files.createTempDirectory(embedded.dataDir().getParent(), "redis-copy-");
        embedded.close();
        copy(embedded.dataDir(), aside);
        restart();
        // The same data back: once Redis has loaded it (or the state check rebuilt it), the sale goes on.
        await().atMost(DEADLINE).ignoreExceptions().until(() -> holds(voucher, 7));

        orderAcceptedAfterRebuilds(voucher, 4, 5, 6);
        await().atMost(DEADLINE).until(() -> rows(voucher) == 6 && quiet(voucher));

        // The copy back in place: Redis says 7 remain and knows buyers 1–3 only.
        embedded.close();
        copy(aside, embedded.dataDir());
        restart();

        // The service notices the other server (run_id) and rebuilds: 4 remain, buyers 1–6.
        await().atMost(DEADLINE).ignoreExceptions().until(() -> holds(voucher, 4));
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(4);
        for (long buyer = 1; buyer <= 6; buyer++) {
            assertThat(api.order(voucher, buyer).code()).as("buyer %d", buyer).isEqualTo("ALREADY_ORDERED");
        }
        orderAcceptedAfterRebuilds(voucher, 7, 8, 9, 10);
        assertThat(api.order(voucher, 11).code()).isEqualTo("SOLD_OUT");
        await().atMost(DEADLINE).until(() -> rows(voucher) == 10 && quiet(voucher));

        assertThat(jdbc.queryForList("SELECT user_id FROM orders WHERE voucher_id = ?", Long.class, voucher))
                .containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        Invariants.Ledger ledger = new Invariants(redis, jdbc, keys).assertHold(voucher, 10);
        assertThat(ledger.deadLetters()).isZero();
        assertThat(ledger.remaining()).isZero();
    }

    /**
     * Orders one unit for each buyer as a buyer told {@code Retry-After} would: again after a 503 VOUCHER_REBUILDING,
     * which changes nothing. The state check surveys a restarted Redis (another {@code run_id}) against the database
     * and the streams while these orders come in, and may find them counted on one side only for a moment: it
     * rebuilds the voucher then, which is safe and brief, and a busy machine's slower survey overlaps the orders.
     */
    private void orderAcceptedAfterRebuilds(long voucher, long... buyers) {
        for (long buyer : buyers) {
            await().atMost(DEADLINE).until(() -> {
                Answer answer = api.order(voucher, buyer);
                if (answer.status() == 503 && "VOUCHER_REBUILDING".equals(answer.code())) {
                    return false;
                }
                assertThat(answer.status()).as("buyer %d: %s", buyer, answer.body()).isEqualTo(202);
                return true;
            });
        }
    }

    /**
     * Starts Redis again and waits until the service's own connection is back (PING through its template): while
     * the client is disconnected it rejects commands at once, which the API answers 503 REDIS_UNAVAILABLE.
     */
    private void restart() {
        embedded.restart();
        await().atMost(DEADLINE).ignoreExceptions()
                .until(() -> "PONG".equals(redis.execute((RedisCallback<String>) connection -> connection.ping())));
    }

    /** HMGET voucher stock rebuilding: these units remain and no rebuild is under way. */
    private boolean holds(long voucher, long units) {
        List<Object> state = redis.opsForHash().multiGet(keys.voucher(voucher), List.of("stock", "rebuilding"));
        return Long.toString(units).equals(state.get(0)) && state.get(1) == null;
    }

    private long rows(long voucher) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE voucher_id = ?", Long.class, voucher);
    }

    /** XLEN 0: every order written and acknowledged (the writer deletes what it acknowledges). */
    private boolean quiet(long voucher) {
        Long length = redis.opsForStream().size(keys.ordersOf(voucher));
        return length != null && length == 0;
    }

    /** The data directory's files (the append-only file, or Redis 7's folder of them), not the pid file. */
    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.sorted().toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else if (!file.getFileName().toString().endsWith(".pid")) {
                    Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }
}
