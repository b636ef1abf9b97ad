package io.seckill.camel.redisstream;

import java.util.Map;
import org.apache.camel.health.HealthCheckResultBuilder;
import org.apache.camel.impl.health.AbstractHealthCheck;

/**
 * Whether a {@code redis-stream:} consumer is reading: DOWN while the last read of any of its streams failed (Redis
 * unreachable, the group deleted), UP again after its next good read. Camel calls it through the route's consumer
 * check ({@code consumer:<route id>}) while the route runs; a stopped route is the route check's to report.
 */
class RedisStreamHealthCheck extends AbstractHealthCheck {

    private final RedisStreamConsumer consumer;
    private final RedisStreamEndpoint endpoint;

    RedisStreamHealthCheck(RedisStreamConsumer consumer, RedisStreamEndpoint endpoint) {
        super("camel", "redis-stream:" + endpoint.getConsumerName());
        this.consumer = consumer;
        this.endpoint = endpoint;
    }

    @Override
    protected void doCall(HealthCheckResultBuilder builder, Map<String, Object> options) {
        Map<String, String> failures = consumer.readFailures();
        builder.detail("redis-stream.consumer", endpoint.getConsumerName());
        builder.detail("redis-stream.streams", endpoint.getStreams());
        if (failures.isEmpty()) {
            builder.up();
        } else {
            builder.down();
            builder.message("Reading failed: " + failures);
        }
    }
}
