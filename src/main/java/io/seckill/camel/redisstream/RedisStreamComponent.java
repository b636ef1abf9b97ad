package io.seckill.camel.redisstream;

import java.util.Map;
import org.apache.camel.Endpoint;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.annotations.Component;
import org.apache.camel.support.DefaultComponent;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Reads Redis streams through a consumer group ({@code XREADGROUP}) and acknowledges each batch once its exchange
 * completed. Camel's {@code spring-redis} consumer knows pub/sub only; this is its counterpart for streams.
 */
@Component("redis-stream")
public class RedisStreamComponent extends DefaultComponent {

    @Metadata(label = "common", autowired = true, description = "The Redis connection factory (Spring Data Redis,"
            + " Lettuce) every endpoint uses unless it names its own.")
    private RedisConnectionFactory connectionFactory;

    @Override
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters)
            throws Exception {
        RedisStreamEndpoint endpoint = new RedisStreamEndpoint(uri, this, remaining);
        endpoint.setConnectionFactory(connectionFactory);
        setProperties(endpoint, parameters);
        return endpoint;
    }

    public RedisConnectionFactory getConnectionFactory() {
        return connectionFactory;
    }

    public void setConnectionFactory(RedisConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
    }
}
