package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.EmbeddedRedisProperties.AofRewrite;
import io.seckill.support.RedisPort;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.unit.DataSize;

/**
 * A real embedded Redis whose append-only file grows as a sale would make it grow: the service has it rewritten once
 * the writes pause, never while they go on, and not before the file is large enough. Redis's own rewrite waits for
 * the maximum size the service gave it at start.
 */
@ExtendWith(OutputCaptureExtension.class)
class QuietAofRewritesIntegrationTests {

    private static final AofRewrite SETTINGS = new AofRewrite(DataSize.ofMegabytes(1), DataSize.ofKilobytes(64),
            Duration.ofSeconds(3), DataSize.ofGigabytes(1));
    /** 1 KB a write, 50 writes every 100 ms: about 500 KB a second, a busy intake to {@link #SETTINGS}. */
    private static final String VALUE = "x".repeat(1024);

    @TempDir
    Path dataDir;

    EmbeddedRedis server;
    RedisPort connection;
    StringRedisTemplate redis;
    QuietAofRewrites rewrites;

    @BeforeEach
    void startRedis() {
        // Redis's own rule stays at 64 MB here: every rewrite of these small files is the service's.
        server = EmbeddedRedis.start(0, dataDir);
        connection = RedisPort.connectEmbedded(server.port(), dataDir);
        redis = connection.template();
        rewrites = new QuietAofRewrites(redis, SETTINGS);
    }

    @AfterEach
    void stopRedis() {
        rewrites.stop();
        connection.close();
        server.close();
    }

    @Test
    void theFileIsRewrittenOnceTheWritesPauseAndNotWhileTheyGoOn() throws Exception {
        long forksBefore = info("stats", "total_forks");
        AtomicBoolean writing = new AtomicBoolean(true);
        AtomicLong written = new AtomicLong();
        Thread writer = new Thread(() -> {
            while (writing.get()) {
                for (int i = 0; i < 50; i++) {
                    redis.opsForValue().set("order:" + written.incrementAndGet(), VALUE);
                }
                try {
                    TimeUnit.MILLISECONDS.sleep(100);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        writer.start();
        rewrites.start();
        try {
            // Past 1 MB within seconds, and twice the quiet time of writes: no fork.
            await().atMost(Duration.ofSeconds(10)).until(() -> info("persistence", "aof_current_size") > 2_000_000);
            await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(8))
                    .until(() -> info("stats", "total_forks") == forksBefore);
        } finally {
            writing.set(false);
            writer.join();
        }
        long grown = info("persistence", "aof_current_size");

        // Quiet: one rewrite, whose base is the dataset written so far, and the file shrinks to about it.
        await().atMost(Duration.ofSeconds(10)).until(() -> info("stats", "total_forks") == forksBefore + 1
                && info("persistence", "aof_rewrite_in_progress") == 0);
        assertThat(info("persistence", "aof_base_size")).isPositive();
        assertThat(info("persistence", "aof_current_size")).isLessThan(grown);
        assertThat(redis.opsForValue().get("order:" + written.get())).isEqualTo(VALUE);
        // Nothing written since: the file has not doubled again, so no second rewrite.
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(6))
                .until(() -> info("stats", "total_forks") == forksBefore + 1);
    }

    @Test
    void aQuietFileSmallerThanTheMinimumIsLeftAlone() {
        long forksBefore = info("stats", "total_forks");
        for (int i = 0; i < 300; i++) {
            redis.opsForValue().set("order:" + i, VALUE);
        }
        assertThat(info("persistence", "aof_current_size")).isLessThan(SETTINGS.minSize().toBytes());
        rewrites.start();
        await().during(Duration.ofSeconds(6)).atMost(Duration.ofSeconds(8))
                .until(() -> info("stats", "total_forks") == forksBefore);
    }

    @Test
    void aRewriteRedisRefusesIsReportedAndTheChecksGoOn(@TempDir Path otherDir, CapturedOutput output) {
        // An operator's refused-commands may include BGREWRITEAOF; an exception out of a check would end the task.
        try (EmbeddedRedis refusing = EmbeddedRedis.start(0, otherDir, "everysec", 1, List.of("bgrewriteaof"),
                DataSize.ofGigabytes(1));
                RedisPort client = RedisPort.connectEmbedded(refusing.port(), otherDir)) {
            for (int i = 0; i < 1500; i++) {
                client.template().opsForValue().set("order:" + i, VALUE);
            }
            QuietAofRewrites checks = new QuietAofRewrites(client.template(), new AofRewrite(
                    DataSize.ofMegabytes(1), DataSize.ofKilobytes(64), Duration.ZERO, DataSize.ofGigabytes(1)));
            checks.check();
            checks.check();
            assertThat(output.getAll()).contains("The embedded Redis did not rewrite its append-only file")
                    .contains("NOPERM");
        }
    }

    @Test
    void redisRewritesTheFileItselfOnlyAtTheMaximumSize(@TempDir Path otherDir) {
        // CONFIG is refused in the service's embedded Redis; this one lets the test ask.
        try (EmbeddedRedis maximum = EmbeddedRedis.start(0, otherDir, "everysec", 1, List.of("module"),
                DataSize.ofMegabytes(512));
                RedisPort client = RedisPort.connectEmbedded(maximum.port(), otherDir)) {
            // CONFIG GET auto-aof-rewrite-min-size
            Properties config = client.template().execute((RedisCallback<Properties>) redis ->
                    redis.serverCommands().getConfig("auto-aof-rewrite-min-size"));
            assertThat(config.getProperty("auto-aof-rewrite-min-size")).isEqualTo("536870912");
        }
    }

    private long info(String section, String field) {
        Properties info = redis.execute((RedisCallback<Properties>) connection ->
                connection.serverCommands().info(section));
        return Long.parseLong(info.getProperty(field).trim());
    }
}
