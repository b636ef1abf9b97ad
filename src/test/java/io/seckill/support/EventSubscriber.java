package io.seckill.support;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import java.util.Collection;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A subscriber of the order events' pub/sub channel on a connection of its own, as an operator's
 * {@code redis-cli SUBSCRIBE seckill:events} would be: every message from the moment it is opened.
 */
public final class EventSubscriber implements AutoCloseable {

    private final RedisClient client;
    private final StatefulRedisPubSubConnection<String, String> connection;
    private final BlockingQueue<String> messages = new LinkedBlockingQueue<>();

    /** SUBSCRIBE channel (with the service's password, if any); returns once Redis confirmed the subscription. */
    public EventSubscriber(LettuceConnectionFactory redis, String channel) {
        this(standalone(redis), channel);
    }

    /** The same on the Redis at {@code port} of this machine, without a password (a Sentinel-managed master). */
    public static EventSubscriber at(int port, String channel) {
        return new EventSubscriber(RedisURI.create("127.0.0.1", port), channel);
    }

    private EventSubscriber(RedisURI uri, String channel) {
        client = RedisClient.create(uri);
        connection = client.connectPubSub();
        connection.addListener(new RedisPubSubAdapter<>() {
            @Override
            public void message(String from, String message) {
                messages.add(message);
            }
        });
        connection.sync().subscribe(channel);
    }

    private static RedisURI standalone(LettuceConnectionFactory redis) {
        RedisURI uri = RedisURI.create(redis.getHostName(), redis.getPort());
        redis.getStandaloneConfiguration().getPassword().toOptional().ifPresent(uri::setPassword);
        return uri;
    }

    /** Moves the messages that arrived since the last call into {@code into}. */
    public void drainTo(Collection<String> into) {
        messages.drainTo(into);
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown();
    }
}
