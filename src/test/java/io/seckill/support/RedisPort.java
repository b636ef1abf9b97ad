package io.seckill.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A connection to the Redis on 127.0.0.1:port (a service's embedded one, with the password from its data directory,
 * or a test's own), as a template.
 */
public final class RedisPort implements AutoCloseable {

    private final LettuceConnectionFactory connectionFactory;
    private final StringRedisTemplate template;

    private RedisPort(RedisStandaloneConfiguration redis) {
        this.connectionFactory = new LettuceConnectionFactory(redis);
        connectionFactory.afterPropertiesSet();
        connectionFactory.start();
        this.template = new StringRedisTemplate(connectionFactory);
    }

    public static RedisPort connect(int port) {
        return new RedisPort(new RedisStandaloneConfiguration("127.0.0.1", port));
    }

    /** The embedded Redis of a service whose data directory is {@code dataDir} ({@code <work dir>/data/redis}). */
    public static RedisPort connectEmbedded(int port, Path dataDir) {
        RedisStandaloneConfiguration redis = new RedisStandaloneConfiguration("127.0.0.1", port);
        try {
            redis.setPassword(Files.readString(dataDir.resolve("password")).strip());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new RedisPort(redis);
    }

    public StringRedisTemplate template() {
        return template;
    }

    @Override
    public void close() {
        connectionFactory.destroy();
    }
}
