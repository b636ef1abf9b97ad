package io.seckill.support;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** A connection to the Redis on 127.0.0.1:port (a service's embedded one, or a test's own), as a template. */
public final class RedisPort implements AutoCloseable {

    private final LettuceConnectionFactory connectionFactory;
    private final StringRedisTemplate template;

    private RedisPort(int port) {
        this.connectionFactory = new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
        connectionFactory.afterPropertiesSet();
        connectionFactory.start();
        this.template = new StringRedisTemplate(connectionFactory);
    }

    public static RedisPort connect(int port) {
        return new RedisPort(port);
    }

    public StringRedisTemplate template() {
        return template;
    }

    @Override
    public void close() {
        connectionFactory.destroy();
    }
}
