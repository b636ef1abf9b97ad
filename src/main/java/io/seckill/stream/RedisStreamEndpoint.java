package io.seckill.stream;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.camel.Consumer;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.support.DefaultEndpoint;

/** The options of one {@code redis-stream:} consumer. Each exchange carries a batch: a list of {@link StreamEntry}. */
public class RedisStreamEndpoint extends DefaultEndpoint {

    private final List<String> streams;
    private String group;
    private String consumerName;
    private int batchSize = 100;
    private long blockMillis = 1000;
    private long reconnectDelayMillis = 1000;
    private int concurrentConsumers = 1;
    private int maxDeliveries;
    /** Streams whose group a consumer of this endpoint found or created (guarded by this); the endpoint outlives
     *  the route's stops and starts, its consumers do not. */
    private final Set<String> groupsSeen = new HashSet<>();

    RedisStreamEndpoint(String uri, RedisStreamComponent component, List<String> streams) {
        super(uri, component);
        this.streams = streams;
    }

    @Override
    public Producer createProducer() {
        throw new UnsupportedOperationException("redis-stream: only consumes; append with a Lua script or XADD");
    }

    @Override
    public Consumer createConsumer(Processor processor) throws Exception {
        if (group == null || group.isBlank() || consumerName == null || consumerName.isBlank()) {
            throw new IllegalArgumentException("redis-stream: needs group and consumerName: " + getEndpointUri());
        }
        RedisStreamConsumer consumer = new RedisStreamConsumer(this, processor);
        configureConsumer(consumer);
        return consumer;
    }

    @Override
    public RedisStreamComponent getComponent() {
        return (RedisStreamComponent) super.getComponent();
    }

    /**
     * Makes sure the group exists on STREAM, one reader at a time (so a reader that finds the group a moment after
     * another created it cannot make that creation look like a loss).
     *
     * @param createIfMissing creates the group if it is not there; whether it did
     * @return whether the group had been there for this endpoint and was created again now: Redis lost it
     */
    synchronized boolean groupLost(String stream, BooleanSupplier createIfMissing) {
        boolean created = createIfMissing.getAsBoolean();
        return !groupsSeen.add(stream) && created;
    }

    public List<String> getStreams() {
        return streams;
    }

    public String getGroup() {
        return group;
    }

    public void setGroup(String group) {
        this.group = group;
    }

    public String getConsumerName() {
        return consumerName;
    }

    public void setConsumerName(String consumerName) {
        this.consumerName = consumerName;
    }

    public int getBatchSize() {
        return batchSize;
    }

    public void setBatchSize(int batchSize) {
        this.batchSize = batchSize;
    }

    public long getBlockMillis() {
        return blockMillis;
    }

    public void setBlockMillis(long blockMillis) {
        this.blockMillis = blockMillis;
    }

    /** Readers per stream, under the one consumer name: while one writes its batch, another reads the next. */
    public int getConcurrentConsumers() {
        return concurrentConsumers;
    }

    public void setConcurrentConsumers(int concurrentConsumers) {
        if (concurrentConsumers < 1) {
            throw new IllegalArgumentException("concurrentConsumers must be at least 1, got " + concurrentConsumers);
        }
        this.concurrentConsumers = concurrentConsumers;
    }

    /**
     * Own pending entries delivered more often than this are not re-read at start-up but left pending, for the
     * pending-list sweeper to dead-letter: an entry that crashes its consumer must not crash every restart. 0: no
     * limit.
     */
    public int getMaxDeliveries() {
        return maxDeliveries;
    }

    public void setMaxDeliveries(int maxDeliveries) {
        this.maxDeliveries = maxDeliveries;
    }

    public long getReconnectDelayMillis() {
        return reconnectDelayMillis;
    }

    public void setReconnectDelayMillis(long reconnectDelayMillis) {
        this.reconnectDelayMillis = reconnectDelayMillis;
    }
}
