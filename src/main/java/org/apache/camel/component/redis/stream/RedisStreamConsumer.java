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

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.support.DefaultConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisStreamCommands.XPendingOptions;
import org.springframework.data.redis.connection.stream.ByteRecord;
import org.springframework.data.redis.connection.stream.Consumer;
import org.springframework.data.redis.connection.stream.PendingMessages;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.connection.stream.StreamReadOptions;

/**
 * Reader threads per stream ({@code concurrentConsumers} each). The first re-reads what the group already delivered
 * to this consumer and it never acknowledged (ID 0: it crashed or failed mid-batch), then every reader reads new
 * entries ({@code >}). A batch is one exchange; it is acknowledged only once the exchange completed without an
 * exception, so a crash or a failure leaves the batch pending: re-read by this consumer name at its next start, or
 * taken over by a claimer of idle entries (XAUTOCLAIM) meanwhile.
 *
 * <p>A batch can be kept fresh while it is processed ({@code keepAlive}), so no claimer takes it from under a
 * live reader however long the exchange takes. While the {@code readPermit} says no, nothing is read.
 *
 * <p>Stopping lets each thread finish and acknowledge the batch in hand; a read blocks at most {@code block}.
 */
class RedisStreamConsumer extends DefaultConsumer {

    private static final Logger log = LoggerFactory.getLogger(RedisStreamConsumer.class);
    private static final String NEW_ENTRIES = ">";

    private final RedisStreamEndpoint endpoint;
    /** Stream → why its last read failed; an entry lives until the next good read (the health check shows it). */
    private final Map<String, String> readFailures = new ConcurrentHashMap<>();
    private volatile boolean polling;
    private ExecutorService executor;
    private AckEntriesScript ackEntries;
    /** Null while keepAlive is 0. */
    private InFlightEntries inFlight;

    RedisStreamConsumer(RedisStreamEndpoint endpoint, Processor processor) {
        super(endpoint, processor);
        this.endpoint = endpoint;
    }

    @Override
    protected void doInit() throws Exception {
        super.doInit();
        RedisStreamHealthCheck check = new RedisStreamHealthCheck(this, endpoint);
        check.setCamelContext(endpoint.getCamelContext());
        setHealthCheck(check);
    }

    Map<String, String> readFailures() {
        return new TreeMap<>(readFailures);
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        if (endpoint.isDeleteAfterAck()) {
            ackEntries = new AckEntriesScript(endpoint.redis());
        }
        if (endpoint.getKeepAlive() > 0) {
            inFlight = new InFlightEntries(endpoint.redis(), Duration.ofMillis(endpoint.getKeepAlive()));
            inFlight.start();
        }
        polling = true;
        List<String> streams = endpoint.streamKeys();
        executor = endpoint.getCamelContext().getExecutorServiceManager()
                .newFixedThreadPool(this, "RedisStream[" + endpoint.getConsumerName() + "]",
                        streams.size() * endpoint.getConcurrentConsumers());
        for (String stream : streams) {
            // The first reader of a stream re-reads this consumer's own pending entries, then they all read new
            // entries, each getting its own. The others wait for that re-read: XREADGROUP ... 0 answers every entry
            // pending for the consumer name, so a new entry another reader had just taken would be processed twice,
            // at the same time.
            CountDownLatch ownPendingReread = new CountDownLatch(1);
            executor.submit(() -> poll(stream, ownPendingReread, true));
            for (int more = 1; more < endpoint.getConcurrentConsumers(); more++) {
                executor.submit(() -> poll(stream, ownPendingReread, false));
            }
        }
    }

    @Override
    protected void doStop() throws Exception {
        polling = false;
        if (executor != null) {
            executor.shutdown();
            long wait = endpoint.getCamelContext().getShutdownStrategy().getTimeUnit()
                    .toMillis(endpoint.getCamelContext().getShutdownStrategy().getTimeout());
            if (!executor.awaitTermination(wait, TimeUnit.MILLISECONDS)) {
                log.warn("Stream consumer {} still busy after {} ms; its batch stays pending",
                        endpoint.getConsumerName(), wait);
                executor.shutdownNow();
            }
            executor = null;
        }
        if (inFlight != null) {
            inFlight.stop();
            inFlight = null;
        }
        super.doStop();
    }

    /**
     * @param ownPendingReread open once the stream's own pending entries are re-read
     * @param rereadsOwnPending whether this reader re-reads them (and opens it); the others wait for it
     */
    private void poll(String stream, CountDownLatch ownPendingReread, boolean rereadsOwnPending) {
        byte[] key = stream.getBytes(StandardCharsets.UTF_8);
        Consumer consumer = Consumer.from(endpoint.getGroup(), endpoint.getConsumerName());
        String offset = rereadsOwnPending ? "0" : NEW_ENTRIES;
        if (!rereadsOwnPending) {
            awaitOwnPendingReread(ownPendingReread);
        }
        RedisConnection connection = null;
        while (polling) {
            BooleanSupplier permit = endpoint.getReadPermit();
            if (permit != null && !permit.getAsBoolean()) {
                pause(endpoint.getBlock());
                continue;
            }
            try {
                if (connection == null) {
                    connection = endpoint.getConnectionFactory().getConnection();
                    RedisConnection connected = connection;
                    // Asked of the endpoint's history, not of a read that failed first: nothing reads while the
                    // route is stopped, and a reader reconnecting right after a FLUSHALL re-creates the group
                    // before another's blocked read reports NOGROUP.
                    if (endpoint.groupLost(stream, () -> createGroupIfMissing(connected, key))) {
                        log.warn("Stream {}: consumer group {} was missing (Redis flushed or lost its data) and is "
                                + "created again; entries lost with the data are not in it", stream,
                                endpoint.getGroup());
                    }
                }
                boolean ownPending = !NEW_ENTRIES.equals(offset);
                StreamReadOptions options = StreamReadOptions.empty().count(endpoint.getBatchSize());
                if (!ownPending) {
                    options = options.block(Duration.ofMillis(endpoint.getBlock()));
                }
                // XREADGROUP GROUP g c COUNT n [BLOCK ms] STREAMS key 0|>
                List<ByteRecord> records = connection.streamCommands().xReadGroup(consumer, options,
                        StreamOffset.create(key, ownPending ? ReadOffset.from(offset) : ReadOffset.lastConsumed()));
                if (readFailures.remove(stream) != null) {
                    log.info("Stream {}: reading again", stream);
                }
                if (records == null || records.isEmpty()) {
                    if (ownPending) {
                        offset = NEW_ENTRIES;
                        ownPendingReread.countDown();
                    }
                    continue;
                }
                List<StreamEntry> entries = toEntries(stream, records);
                if (ownPending) {
                    offset = entries.get(entries.size() - 1).id();
                    entries = withoutOverDelivered(connection, key, consumer, entries);
                    log.info("Stream {}: re-reading {} entries this consumer held unacknowledged", stream,
                            entries.size());
                    if (entries.isEmpty()) {
                        continue;
                    }
                }
                process(stream, entries, !ownPending);
            } catch (Exception e) {
                if (!polling) {
                    break;
                }
                // Once per outage and stream, not once per attempt and reader: Redis may be away for minutes.
                String reason = innermostMessage(e);
                if (!reason.equals(readFailures.put(stream, reason))) {
                    log.warn("Stream {}: reading failed ({}); retrying every {} ms", stream, reason,
                            endpoint.getReconnectDelay());
                }
                connection = close(connection);
                pause(endpoint.getReconnectDelay());
            }
        }
        close(connection);
    }

    /** Until the stream's first reader has re-read the own pending entries, or the consumer stops. */
    private void awaitOwnPendingReread(CountDownLatch ownPendingReread) {
        try {
            while (polling) {
                if (ownPendingReread.await(endpoint.getBlock(), TimeUnit.MILLISECONDS)) {
                    return;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            polling = false;
        }
    }

    private void process(String stream, List<StreamEntry> entries, boolean newEntries) throws Exception {
        Exchange exchange = createExchange(false);
        try (InFlightEntries.Hold hold = inFlight == null ? null
                : inFlight.hold(endpoint.getGroup(), endpoint.getConsumerName(), entries)) {
            exchange.getIn().setBody(entries);
            exchange.getIn().setHeader(RedisStreamConstants.STREAM, stream);
            exchange.getIn().setHeader(RedisStreamConstants.NEW_ENTRIES, newEntries);
            getProcessor().process(exchange);
            if (exchange.getException() == null) {
                acknowledgeProcessed(stream, entries);
            } else {
                getExceptionHandler().handleException(
                        "Batch of " + entries.size() + " entries from " + stream + " left pending", exchange,
                        exchange.getException());
            }
        } finally {
            releaseExchange(exchange, false);
        }
    }

    /**
     * A batch the route completed. If the acknowledgement fails (Redis went away since the read), the entries stay
     * pending and this reader reconnects; they come back as redeliveries. Said here, as the reader's own "reading
     * failed" would not tell an operator that the batch was processed.
     */
    private void acknowledgeProcessed(String stream, List<StreamEntry> entries) {
        List<String> ids = entries.stream().map(StreamEntry::id).toList();
        try {
            if (ackEntries != null) {
                ackEntries.ack(stream, endpoint.getGroup(), ids);
            } else {
                // XACK key group id…
                endpoint.redis().opsForStream().acknowledge(stream, endpoint.getGroup(), ids.toArray(String[]::new));
            }
        } catch (RuntimeException e) {
            log.warn("Stream {}: {} entries processed but not acknowledged ({}); they stay pending and are delivered "
                    + "again (this consumer's next start, or a claimer of idle entries)", stream, entries.size(),
                    innermostMessage(e));
            throw e;
        }
    }

    /**
     * Leaves out own pending entries delivered more than maxDeliveries times (XPENDING over the batch's range): they
     * stay pending, for a claimer of idle entries to deal with (a dead-letter stream, say).
     */
    private List<StreamEntry> withoutOverDelivered(RedisConnection connection, byte[] key, Consumer consumer,
            List<StreamEntry> entries) {
        if (endpoint.getMaxDeliveries() <= 0) {
            return entries;
        }
        // XPENDING key group first last count consumer
        PendingMessages pending = connection.streamCommands().xPending(key, consumer.getGroup(),
                XPendingOptions.range(Range.closed(entries.get(0).id(), entries.get(entries.size() - 1).id()),
                        (long) entries.size()).consumer(consumer.getName()));
        Set<String> overDelivered = new HashSet<>();
        pending.forEach(message -> {
            if (message.getTotalDeliveryCount() > endpoint.getMaxDeliveries()) {
                overDelivered.add(message.getIdAsString());
            }
        });
        if (overDelivered.isEmpty()) {
            return entries;
        }
        log.warn("Stream {}: {} entries delivered more than {} times left pending for a claimer of idle entries: {}",
                entries.get(0).stream(), overDelivered.size(), endpoint.getMaxDeliveries(), overDelivered);
        return entries.stream().filter(entry -> !overDelivered.contains(entry.id())).toList();
    }

    /**
     * On every (re)connection: after a Redis that lost its data (FLUSHALL, a restart without persistence) reading
     * fails with NOGROUP until the group exists again.
     *
     * @return whether the group was created (false: it was there)
     */
    private boolean createGroupIfMissing(RedisConnection connection, byte[] key) {
        try {
            // XGROUP CREATE key group 0 MKSTREAM: entries appended before the first consumer started count too.
            connection.streamCommands().xGroupCreate(key, endpoint.getGroup(), ReadOffset.from("0"), true);
            return true;
        } catch (RuntimeException e) {
            if (!String.valueOf(e.getMessage()).contains("BUSYGROUP")
                    && !(e.getCause() != null && String.valueOf(e.getCause().getMessage()).contains("BUSYGROUP"))) {
                throw e;
            }
            return false;
        }
    }

    /** Spring wraps Redis' own answer (NOGROUP …, not connected) in a generic "Error in execution". */
    private static String innermostMessage(Throwable failure) {
        String message = String.valueOf(failure.getMessage());
        for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
            if (cause.getMessage() != null) {
                message = cause.getMessage();
            }
        }
        return message;
    }

    private static List<StreamEntry> toEntries(String stream, List<ByteRecord> records) {
        List<StreamEntry> entries = new ArrayList<>(records.size());
        for (ByteRecord record : records) {
            Map<String, String> fields = new LinkedHashMap<>();
            if (record.getValue() != null) {
                record.getValue().forEach((k, v) -> fields.put(text(k), text(v)));
            }
            entries.add(new StreamEntry(stream, record.getId().getValue(), fields));
        }
        return entries;
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
    }

    private static RedisConnection close(RedisConnection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (RuntimeException e) {
                log.debug("Closing a broken Redis connection failed", e);
            }
        }
        return null;
    }

    private void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            polling = false;
        }
    }
}
