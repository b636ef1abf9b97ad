package io.seckill.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import redis.embedded.RedisServer;

/**
 * A redis-server owned by the test (embedded-redis jar, free port, no persistence), for service processes run
 * with {@code seckill.redis.embedded=false}: it outlives every instance the test kills.
 */
public final class StandaloneRedis implements AutoCloseable {

    private final RedisServer server;
    private final int port;
    private final LettuceConnectionFactory connectionFactory;
    private final StringRedisTemplate template;

    private StandaloneRedis(RedisServer server, int port) {
        this.server = server;
        this.port = port;
        this.connectionFactory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
        connectionFactory.afterPropertiesSet();
        connectionFactory.start();
        this.template = new StringRedisTemplate(connectionFactory);
    }

    public static StandaloneRedis start(Path dir) {
        int port = ServiceProcess.freePort();
        try {
            Files.createDirectories(dir);
            RedisServer server = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
                    .setting("dir " + dir.toAbsolutePath())
                    .setting("save \"\"")
                    .setting("appendonly no")
                    .build();
            server.start();
            return new StandaloneRedis(server, port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public int port() {
        return port;
    }

    public StringRedisTemplate template() {
        return template;
    }

    /** What a {@link ServiceProcess} needs to use this Redis instead of starting its own. */
    public Map<String, String> serviceProperties() {
        return Map.of("seckill.redis.embedded", "false", "spring.data.redis.host", "127.0.0.1",
                "spring.data.redis.port", Integer.toString(port));
    }

    @Override
    public void close() throws IOException {
        connectionFactory.destroy();
        server.stop();
    }
}
