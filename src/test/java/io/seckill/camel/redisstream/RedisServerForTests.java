package io.seckill.camel.redisstream;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import redis.embedded.RedisServer;

/**
 * A real redis-server of the test's own (the embedded-redis jar) on a free port, nothing persisted, and a connection
 * factory to it: what the component gets from the registry, and what the test checks Redis with.
 */
final class RedisServerForTests implements AutoCloseable {

    private final RedisServer server;
    private final LettuceConnectionFactory connectionFactory;
    private final StringRedisTemplate redis;

    RedisServerForTests() throws IOException {
        int port = freePort();
        server = RedisServer.newRedisServer().port(port).bind("127.0.0.1").setting("save \"\"")
                .setting("appendonly no").build();
        server.start();
        connectionFactory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
        connectionFactory.afterPropertiesSet();
        connectionFactory.start();
        redis = new StringRedisTemplate(connectionFactory);
    }

    LettuceConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    StringRedisTemplate redis() {
        return redis;
    }

    /** SIGTERM, then the same port again: a Redis that restarted and, persisting nothing, lost every key. */
    void restart() throws IOException {
        server.stop();
        server.start();
    }

    @Override
    public void close() throws IOException {
        connectionFactory.destroy();
        server.stop();
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
