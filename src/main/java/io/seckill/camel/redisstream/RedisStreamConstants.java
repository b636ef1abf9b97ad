package io.seckill.camel.redisstream;

import org.apache.camel.spi.Metadata;

/** The headers a {@code redis-stream:} consumer sets on each exchange. */
public final class RedisStreamConstants {

    @Metadata(label = "consumer", description = "The key of the stream the batch was read from.",
            javaType = "String")
    public static final String STREAM = "CamelRedisStreamKey";
    @Metadata(label = "consumer", description = "True on a batch of new entries: none was delivered to any consumer"
            + " of the group before. False on a consumer's own pending entries re-read at start-up, some"
            + " of which it may have processed already.", javaType = "Boolean")
    public static final String NEW_ENTRIES = "CamelRedisStreamNewEntries";

    private RedisStreamConstants() {
    }
}
