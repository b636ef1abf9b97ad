package io.seckill.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import redis.embedded.RedisServer;
import redis.embedded.core.RedisServerBuilder;

/**
 * A redis-server owned by the test (embedded-redis jar, free port): a fresh one for service processes run with
 * {@code seckill.redis.embedded=false}, which outlives every instance the test kills; or one reopening the data
 * a stopped service's embedded Redis left (its append-only file), to see what it held.
 */
public final class StandaloneRedis implements AutoCloseable {

    private final RedisServer server;
    private final int port;
    private final RedisPort client;

    private StandaloneRedis(RedisServer server, int port) {
        this.server = server;
        this.port = port;
        this.client = RedisPort.connect(port);
    }

    /**
     * A Redis of its own, nothing persisted.
     *
     * @param settings more redis.conf lines ({@code "maxmemory 10mb"})
     */
    public static StandaloneRedis start(Path dir, String... settings) {
        return start(dir, false, settings);
    }

    /** A Redis loading the append-only file in {@code dir}. */
    public static StandaloneRedis reopen(Path dir) {
        return start(dir, true);
    }

    private static StandaloneRedis start(Path dir, boolean appendOnly, String... settings) {
        int port = ServiceProcess.freePort();
        try {
            Files.createDirectories(dir);
            RedisServerBuilder builder = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
                    .setting("dir " + dir.toAbsolutePath())
                    .setting("save \"\"")
                    .setting("appendonly " + (appendOnly ? "yes" : "no"));
            for (String setting : settings) {
                builder.setting(setting);
            }
            RedisServer server = builder.build();
            server.start();
            return new StandaloneRedis(server, port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGTERM, as an operator's restart or a failover would: the server writes its append-only file and exits. */
    public void stop() throws IOException {
        server.stop();
    }

    /** Starts the stopped server again on the same port and data (its append-only file replayed, if it kept one). */
    public void restart() throws IOException {
        server.start();
    }

    public int port() {
        return port;
    }

    /** The redis-server's process id ({@code INFO server}), for a test that signals it as a failure would. */
    public long pid() {
        Properties info = client.template().execute(
                (RedisCallback<Properties>) connection -> connection.serverCommands().info("server"));
        return Long.parseLong(info.getProperty("process_id"));
    }

    public StringRedisTemplate template() {
        return client.template();
    }

    /** What a {@link ServiceProcess} needs to use this Redis instead of starting its own. */
    public Map<String, String> serviceProperties() {
        return Map.of("seckill.redis.embedded", "false", "spring.data.redis.host", "127.0.0.1",
                "spring.data.redis.port", Integer.toString(port));
    }

    @Override
    public void close() throws IOException {
        client.close();
        server.stop();
    }
}
