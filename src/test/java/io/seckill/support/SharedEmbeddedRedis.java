package io.seckill.support;

import io.seckill.config.EmbeddedRedis;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What another instance of the service needs to use a running service's embedded Redis instead of starting its own,
 * as a second node pointed at that Redis would be configured: its address and its password.
 */
public final class SharedEmbeddedRedis {

    private SharedEmbeddedRedis() {}

    /** Those settings, then {@code others} (the database, the consumer name, …). */
    public static Map<String, Object> serviceProperties(EmbeddedRedis redis, Map<String, ?> others) {
        Map<String, Object> properties = new LinkedHashMap<>();
        properties.put("seckill.redis.embedded", "false");
        properties.put("spring.data.redis.host", "127.0.0.1");
        properties.put("spring.data.redis.port", Integer.toString(redis.port()));
        properties.put("spring.data.redis.password", redis.password());
        properties.putAll(others);
        return properties;
    }

    /** The same as {@code --key=value} arguments. */
    public static List<String> arguments(EmbeddedRedis redis) {
        return serviceProperties(redis, Map.of()).entrySet().stream()
                .map(e -> "--" + e.getKey() + "=" + e.getValue()).toList();
    }
}
