package io.seckill.stream;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/** Registers the {@code redis-stream:} component with Camel (Camel finds components by bean name). */
@Configuration(proxyBeanMethods = false)
class RedisStreamConfiguration {

    @Bean("redis-stream")
    RedisStreamComponent redisStreamComponent(RedisConnectionFactory connectionFactory, AckEntriesScript ackEntries,
            InFlightEntries inFlight, ConsumerNameLease lease) {
        return new RedisStreamComponent(connectionFactory, ackEntries, inFlight, lease);
    }
}
