package io.seckill.stream;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.camel.Endpoint;
import org.apache.camel.support.DefaultComponent;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * {@code redis-stream:key1,key2?group=…&consumerName=…&batchSize=…&blockMillis=…}: reads Redis streams through a
 * consumer group. Camel's spring-redis consumer only subscribes to pub/sub, so this fills the gap.
 */
public class RedisStreamComponent extends DefaultComponent {

    private final RedisConnectionFactory connectionFactory;
    private final AckEntriesScript ackEntries;
    private final InFlightEntries inFlight;
    private final ConsumerNameLease lease;

    public RedisStreamComponent(RedisConnectionFactory connectionFactory, AckEntriesScript ackEntries,
            InFlightEntries inFlight, ConsumerNameLease lease) {
        this.connectionFactory = connectionFactory;
        this.ackEntries = ackEntries;
        this.inFlight = inFlight;
        this.lease = lease;
    }

    @Override
    protected Endpoint createEndpoint(String uri, String remaining, Map<String, Object> parameters)
            throws Exception {
        List<String> streams = Arrays.stream(remaining.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .toList();
        if (streams.isEmpty()) {
            throw new IllegalArgumentException("redis-stream: needs at least one stream key: " + uri);
        }
        RedisStreamEndpoint endpoint = new RedisStreamEndpoint(uri, this, streams);
        setProperties(endpoint, parameters);
        return endpoint;
    }

    RedisConnectionFactory connectionFactory() {
        return connectionFactory;
    }

    AckEntriesScript ackEntries() {
        return ackEntries;
    }

    InFlightEntries inFlight() {
        return inFlight;
    }

    /** Whether this instance holds its consumer name now: while it does not, nothing is read under it. */
    boolean consumerNameHeld() {
        return lease.held();
    }
}
