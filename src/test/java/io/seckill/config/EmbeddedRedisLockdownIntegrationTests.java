package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.RawRedis;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.test.annotation.DirtiesContext;

/**
 * The embedded Redis takes no client without its password, and refuses the commands that would let one with it take
 * over the server, while the service itself (which authenticates on its own) takes and writes orders. A context of
 * its own: one test kills its redis-server for the supervisor to start again.
 */
@SeckillIntegrationTest
@DirtiesContext
class EmbeddedRedisLockdownIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Autowired
    ApiClient api;

    @Autowired
    EmbeddedRedis redis;

    @Autowired
    Stores stores;

    @Test
    void aClientWithoutThePasswordIsRefusedEverything() {
        try (RawRedis stranger = RawRedis.connect(redis.port())) {
            // PING, FLUSHALL, CONFIG SET dir: before the lockdown, +PONG, +OK, +OK
            assertThat(stranger.call("PING")).startsWith("-NOAUTH");
            assertThat(stranger.call("FLUSHALL")).startsWith("-NOAUTH");
            assertThat(stranger.call("CONFIG", "SET", "dir", "/tmp")).startsWith("-NOAUTH");
            // AUTH with a guess
            assertThat(stranger.call("AUTH", "guess")).startsWith("-WRONGPASS");
        }
    }

    static List<List<String>> refusedCommands() {
        return List.of(List.of("CONFIG", "GET", "dir"), List.of("CONFIG", "SET", "dir", "/tmp"),
                List.of("MODULE", "LIST"), List.of("DEBUG", "SLEEP", "0"),
                List.of("ACL", "SETUSER", "default", "+config"), List.of("SHUTDOWN", "NOSAVE"));
    }

    @ParameterizedTest
    @MethodSource("refusedCommands")
    void evenWithThePasswordTheCommandsThatTakeOverTheServerAreRefused(List<String> command) {
        try (RawRedis client = RawRedis.connect(redis.port()).authenticate(redis.password())) {
            assertThat(client.call(command.toArray(String[]::new))).as(String.join(" ", command)).startsWith("-NOPERM");
            // The connection, and the server, are still there.
            assertThat(client.call("PING")).isEqualTo("+PONG");
        }
    }

    @Test
    void theServiceAuthenticatesOnItsOwnAndTakesAndWritesOrders() {
        long voucher = api.createVoucher(2);
        api.orderAccepted(voucher, 1);
        await().atMost(DEADLINE).until(() -> stores.orderRows(voucher) == 1);
    }

    @Test
    void thePasswordIsKeptForTheServiceUserOnlyAndServesTheServerTheSupervisorStartsAgain() throws Exception {
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(redis.passwordFile())))
                .isEqualTo("rw-------");
        assertThat(Files.readString(redis.passwordFile()).strip()).isEqualTo(redis.password());

        // The server dies; its supervisor starts it again, with the same password: the file's, and the clients'.
        long pid = Long.parseLong(Files.readString(redis.dataDir().resolve("redis.pid")).trim());
        ProcessHandle.of(pid).orElseThrow().destroyForcibly();
        await().atMost(DEADLINE).until(() -> redis.restarts() == 1 && redis.isRunning());
        try (RawRedis client = RawRedis.connect(redis.port())
                .authenticate(Files.readString(redis.passwordFile()).strip())) {
            assertThat(client.call("PING")).isEqualTo("+PONG");
        }
        // PING through the service's own connection: back once the client reconnected and authenticated again.
        await().atMost(DEADLINE).ignoreExceptions().until(() ->
                "PONG".equals(stores.redis().execute((RedisCallback<String>) connection -> connection.ping())));
        long voucher = api.createVoucher(1);
        api.orderAccepted(voucher, 1);
        await().atMost(DEADLINE).until(() -> stores.orderRows(voucher) == 1);
    }
}
