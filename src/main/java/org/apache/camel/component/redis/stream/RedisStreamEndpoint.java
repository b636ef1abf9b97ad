/*
 * Licensed to the Apache Software Foundation (ASF) under one or more
 * contributor license agreements.  See the NOTICE file distributed with
 * this work for additional information regarding copyright ownership.
 * The ASF licenses this file to You under the Apache License, Version 2.0
 * (the "License"); you may not use this file except in compliance with
 * the License.  You may obtain a copy of the License at
 *
 *      http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */
package org.apache.camel.component.redis.stream;

import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.camel.Category;
import org.apache.camel.Consumer;
import org.apache.camel.Processor;
import org.apache.camel.Producer;
import org.apache.camel.spi.Metadata;
import org.apache.camel.spi.UriEndpoint;
import org.apache.camel.spi.UriParam;
import org.apache.camel.spi.UriPath;
import org.apache.camel.support.DefaultEndpoint;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Read Redis Streams through a consumer group, acknowledging each batch once processed.
 *
 * <p>Reads one or more streams as a consumer of a consumer group (XREADGROUP). Each exchange carries a batch of
 * entries read from one stream, as a list of {@link StreamEntry}, acknowledged (XACK) once the exchange completed
 * without an exception.
 */
@UriEndpoint(firstVersion = "4.17.0", scheme = "redis-stream", title = "Redis Streams", syntax = "redis-stream:streams",
        consumerOnly = true, category = { Category.MESSAGING }, headersClass = RedisStreamConstants.class)
public class RedisStreamEndpoint extends DefaultEndpoint {

    @UriPath(description = "The keys of the streams to read, comma separated; each is read by threads of its own.")
    @Metadata(required = true)
    private String streams;
    @UriParam(label = "consumer", description = "The consumer group to read through (XREADGROUP GROUP); created"
            + " at the start of the stream (with the stream, MKSTREAM) when it does not exist, and again when Redis"
            + " lost it.")
    @Metadata(required = true)
    private String group;
    @UriParam(label = "consumer", description = "This consumer's name in the group. Keep it stable across restarts:"
            + " a consumer started again under its name first re-reads the entries it held unacknowledged. Two live"
            + " consumers must not share one name.")
    @Metadata(required = true)
    private String consumerName;
    @UriParam(label = "consumer", defaultValue = "100", description = "The most entries read at once (COUNT): one"
            + " exchange each.")
    private int batchSize = 100;
    @UriParam(label = "consumer", defaultValue = "1000", javaType = "java.time.Duration", description = "How long"
            + " one read waits for new entries (BLOCK); also the longest a stop waits for a reader that is waiting. A"
            + " duration (1s, 500ms) or milliseconds.")
    private long block = 1000;
    @UriParam(label = "consumer", defaultValue = "1", description = "Readers per stream, all under the one consumer"
            + " name: while one processes its batch, another reads the next.")
    private int concurrentConsumers = 1;
    @UriParam(label = "consumer", defaultValue = "0", description = "At start-up, own pending entries delivered more"
            + " often than this are not re-read but left pending for whoever claims idle entries (XAUTOCLAIM), so an"
            + " entry that crashes its consumer cannot crash every restart. 0: no limit.")
    private int maxDeliveries;
    @UriParam(label = "consumer", defaultValue = "false", description = "Removes acknowledged entries from the"
            + " stream in the same step (XACK, then XTRIM MINID below the oldest entry still pending or unread, and"
            + " XDEL for those above it), so the stream holds only what still waits. Only for a stream this one group"
            + " reads: entries another group has not read yet would go too.")
    private boolean deleteAfterAck;
    @UriParam(label = "consumer", defaultValue = "0", javaType = "java.time.Duration", description = "How often the"
            + " idle time of entries being processed is reset (XCLAIM to their holder with IDLE 0 JUSTID: no delivery"
            + " counted), so that a claimer of idle entries (XAUTOCLAIM with a min-idle time) does not take them from"
            + " a live consumer however long an exchange takes. Set it well below that min-idle time. A duration"
            + " (10s) or milliseconds; 0: off.")
    private long keepAlive;
    @UriParam(label = "consumer,advanced", description = "Asked before every read: while it answers false, nothing is"
            + " read (a batch in hand is still processed and acknowledged) and it is asked again after block."
            + " For example a lease that keeps the consumer name to one live instance.")
    private BooleanSupplier readPermit;
    @UriParam(label = "consumer,advanced", defaultValue = "1000", javaType = "java.time.Duration",
            description = "How long a reader waits after a failed read (Redis unreachable) before it connects again."
                    + " A duration (1s, 500ms) or milliseconds.")
    private long reconnectDelay = 1000;
    @UriParam(label = "common", description = "The Redis connection factory to use; by default the component's.")
    private RedisConnectionFactory connectionFactory;

    private StringRedisTemplate redis;
    /** Streams whose group a consumer of this endpoint found or created (guarded by this); the endpoint outlives
     *  the route's stops and starts, its consumers do not. */
    private final Set<String> groupsSeen = new HashSet<>();

    RedisStreamEndpoint(String uri, RedisStreamComponent component, String streams) {
        super(uri, component);
        this.streams = streams;
        if (streamKeys().isEmpty()) {
            throw new IllegalArgumentException("redis-stream: needs at least one stream key: " + uri);
        }
    }

    @Override
    public Producer createProducer() {
        throw new UnsupportedOperationException("redis-stream: only consumes; append with XADD");
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
    protected void doStart() throws Exception {
        super.doStart();
        if (connectionFactory == null) {
            throw new IllegalStateException("redis-stream: no connectionFactory; the registry holds none or several: "
                    + getEndpointUri());
        }
        redis = new StringRedisTemplate(connectionFactory);
    }

    /** Commands and scripts of this endpoint's consumers, on its connection factory. */
    StringRedisTemplate redis() {
        return redis;
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

    /** The stream keys of {@link #getStreams()}, in order. */
    public List<String> streamKeys() {
        return Arrays.stream(streams.split(",")).map(String::trim).filter(key -> !key.isEmpty()).toList();
    }

    public String getStreams() {
        return streams;
    }

    public void setStreams(String streams) {
        this.streams = streams;
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

    public long getBlock() {
        return block;
    }

    public void setBlock(long block) {
        this.block = block;
    }

    public int getConcurrentConsumers() {
        return concurrentConsumers;
    }

    public void setConcurrentConsumers(int concurrentConsumers) {
        if (concurrentConsumers < 1) {
            throw new IllegalArgumentException("concurrentConsumers must be at least 1, got " + concurrentConsumers);
        }
        this.concurrentConsumers = concurrentConsumers;
    }

    public int getMaxDeliveries() {
        return maxDeliveries;
    }

    public void setMaxDeliveries(int maxDeliveries) {
        this.maxDeliveries = maxDeliveries;
    }

    public boolean isDeleteAfterAck() {
        return deleteAfterAck;
    }

    public void setDeleteAfterAck(boolean deleteAfterAck) {
        this.deleteAfterAck = deleteAfterAck;
    }

    public long getKeepAlive() {
        return keepAlive;
    }

    public void setKeepAlive(long keepAlive) {
        this.keepAlive = keepAlive;
    }

    public BooleanSupplier getReadPermit() {
        return readPermit;
    }

    public void setReadPermit(BooleanSupplier readPermit) {
        this.readPermit = readPermit;
    }

    public long getReconnectDelay() {
        return reconnectDelay;
    }

    public void setReconnectDelay(long reconnectDelay) {
        this.reconnectDelay = reconnectDelay;
    }

    public RedisConnectionFactory getConnectionFactory() {
        return connectionFactory;
    }

    public void setConnectionFactory(RedisConnectionFactory connectionFactory) {
        this.connectionFactory = connectionFactory;
    }
}
