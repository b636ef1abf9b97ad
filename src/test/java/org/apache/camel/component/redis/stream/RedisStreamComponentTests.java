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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Processor;
import org.apache.camel.builder.NotifyBuilder;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.Consumer;
import org.springframework.data.redis.connection.stream.PendingMessage;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.StreamInfo.XInfoGroup;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.connection.stream.StreamReadOptions;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The {@code redis-stream:} component alone: a plain CamelContext (no Spring), the component found by its service
 * file, its connection factory autowired from the registry, against a real redis-server. Each test reads streams of
 * its own.
 */
class RedisStreamComponentTests {

    private static final Duration WAIT = Duration.ofSeconds(20);

    @RegisterExtension
    static final RedisServerExtension redisServer = new RedisServerExtension();

    StringRedisTemplate redis;
    CamelContext camel;
    String stream;
    /** What the routes received, batch by batch. */
    final List<Batch> batches = new CopyOnWriteArrayList<>();

    record Batch(String stream, Boolean newEntries, List<StreamEntry> entries) {}

    @BeforeEach
    void startCamel() {
        redis = redisServer.redis();
        stream = "stream-test:" + UUID.randomUUID();
        camel = new DefaultCamelContext();
        camel.getRegistry().bind("redis", redisServer.connectionFactory());
        camel.getShutdownStrategy().setTimeout(10);
        camel.start();
    }

    @AfterEach
    void stopCamel() {
        camel.stop();
    }

    @Test
    void readsABatchThroughTheGroupAndAcknowledgesItOnceTheExchangeCompleted() throws Exception {
        List<String> ids = append(stream, 3);

        // XGROUP CREATE … MKSTREAM, XREADGROUP GROUP writers writer-1 COUNT 10 … >, then XACK
        consume(uri(stream, "writers", "writer-1") + "&batchSize=10", record());

        await().atMost(WAIT).until(() -> batches.size() == 1);
        Batch batch = batches.get(0);
        assertThat(batch.stream()).isEqualTo(stream);
        assertThat(batch.newEntries()).isTrue();
        assertThat(batch.entries()).extracting(StreamEntry::id).containsExactlyElementsOf(ids);
        assertThat(batch.entries()).extracting(entry -> entry.fields().get("n")).containsExactly("1", "2", "3");
        await().atMost(WAIT).untilAsserted(() -> assertThat(pendingCount(stream, "writers")).isZero());
        // Acknowledged, not deleted: the stream is a log other groups may read
        assertThat(redis.opsForStream().size(stream)).isEqualTo(3);
    }

    @Test
    void durationOptionsTakeAUnitOrMilliseconds() {
        // Camel's duration options: 2s, 250ms, 1m, or a bare number of milliseconds
        RedisStreamEndpoint withUnits = camel.getEndpoint("redis-stream:" + stream
                + "?group=writers&consumerName=writer-1&block=2s&keepAlive=250ms&reconnectDelay=1m",
                RedisStreamEndpoint.class);
        assertThat(withUnits.getBlock()).isEqualTo(2000);
        assertThat(withUnits.getKeepAlive()).isEqualTo(250);
        assertThat(withUnits.getReconnectDelay()).isEqualTo(60_000);

        RedisStreamEndpoint inMillis = camel.getEndpoint("redis-stream:" + stream
                + "?group=writers&consumerName=writer-2&block=1500&keepAlive=10000&reconnectDelay=300",
                RedisStreamEndpoint.class);
        assertThat(inMillis.getBlock()).isEqualTo(1500);
        assertThat(inMillis.getKeepAlive()).isEqualTo(10_000);
        assertThat(inMillis.getReconnectDelay()).isEqualTo(300);
    }

    @Test
    void deleteAfterAckRemovesTheAcknowledgedEntriesFromTheStream() throws Exception {
        append(stream, 3);

        // XACK, XTRIM MINID (ackEntries-1.lua)
        consume(uri(stream, "writers", "writer-1") + "&deleteAfterAck=true", record());

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(batches).flatExtracting(Batch::entries).hasSize(3);
            assertThat(pendingCount(stream, "writers")).isZero();
            assertThat(redis.opsForStream().size(stream)).isZero();
        });
    }

    @Test
    void aFailedExchangeLeavesItsEntriesPendingAndTheConsumerReReadsThemWhenStartedAgain() throws Exception {
        List<String> ids = append(stream, 2);
        AtomicBoolean failing = new AtomicBoolean(true);
        NotifyBuilder failed = new NotifyBuilder(camel).whenFailed(1).create();
        String route = consume(uri(stream, "writers", "writer-1"), exchange -> {
            if (failing.get()) {
                throw new IllegalStateException("the database is away");
            }
            record().process(exchange);
        });

        assertThat(failed.matches(WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
        // XPENDING: delivered to writer-1, not acknowledged
        await().atMost(WAIT).untilAsserted(() -> assertThat(pendingIds(stream, "writers", "writer-1"))
                .containsExactlyElementsOf(ids));

        // As after a crash: started again under its name, it first re-reads its own pending entries (ID 0)
        failing.set(false);
        camel.getRouteController().stopRoute(route);
        camel.getRouteController().startRoute(route);

        await().atMost(WAIT).until(() -> batches.size() == 1);
        assertThat(batches.get(0).newEntries()).isFalse();
        assertThat(batches.get(0).entries()).extracting(StreamEntry::id).containsExactlyElementsOf(ids);
        await().atMost(WAIT).untilAsserted(() -> assertThat(pendingCount(stream, "writers")).isZero());
    }

    @Test
    void twoEndpointsWithDifferentGroupsEachReadEveryEntryAndAcknowledgeInTheirOwnGroup() throws Exception {
        List<String> ids = append(stream, 3);
        List<String> readByAuditors = new CopyOnWriteArrayList<>();

        consume(uri(stream, "writers", "writer-1"), record());
        consume(uri(stream, "auditors", "auditor-1"), exchange -> readByAuditors.addAll(
                exchange.getIn().getBody(List.class).stream().map(entry -> ((StreamEntry) entry).id()).toList()));

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(batches).flatExtracting(Batch::entries).extracting(StreamEntry::id)
                    .containsExactlyElementsOf(ids);
            assertThat(readByAuditors).containsExactlyElementsOf(ids);
            // XPENDING of each group
            assertThat(pendingCount(stream, "writers")).isZero();
            assertThat(pendingCount(stream, "auditors")).isZero();
        });
        assertThat(redis.opsForStream().size(stream)).isEqualTo(3);
    }

    @Test
    void readsSeveralStreamsEachBatchFromOneStream() throws Exception {
        String other = "stream-test:" + UUID.randomUUID();
        append(stream, 2);
        append(other, 3);

        consume("redis-stream:" + stream + "," + other + "?group=writers&consumerName=writer-1&block=100ms",
                record());

        await().atMost(WAIT).untilAsserted(() -> assertThat(batches).flatExtracting(Batch::entries).hasSize(5));
        for (Batch batch : batches) {
            assertThat(batch.entries()).allSatisfy(entry -> assertThat(entry.stream()).isEqualTo(batch.stream()));
        }
        assertThat(batches).extracting(Batch::stream).containsOnly(stream, other);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(pendingCount(stream, "writers")).isZero();
            assertThat(pendingCount(other, "writers")).isZero();
        });
    }

    @Test
    void concurrentConsumersProcessBatchesOfOneStreamAtTheSameTime() throws Exception {
        append(stream, 3);
        CountDownLatch allInFlight = new CountDownLatch(3);
        AtomicInteger overlapping = new AtomicInteger();

        // Three readers under one consumer name, one entry each: each waits until all three hold theirs
        consume(uri(stream, "writers", "writer-1") + "&concurrentConsumers=3&batchSize=1", exchange -> {
            allInFlight.countDown();
            if (allInFlight.await(WAIT.toSeconds(), TimeUnit.SECONDS)) {
                overlapping.incrementAndGet();
            }
            record().process(exchange);
        });

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(overlapping).hasValue(3);
            assertThat(pendingCount(stream, "writers")).isZero();
        });
        assertThat(batches).hasSize(3).allSatisfy(batch -> assertThat(batch.entries()).hasSize(1));
    }

    @Test
    void concurrentConsumersReadNewEntriesOnlyOnceTheOwnPendingOnesAreReRead() throws Exception {
        List<String> ids = append(stream, 1);
        // Held by writer-1 as if it crashed; three new entries after it
        readAndAbandon(stream, "writers", "writer-1", 1);
        List<String> all = new ArrayList<>(ids);
        all.addAll(append(stream, 3));
        Set<String> seen = ConcurrentHashMap.newKeySet();
        CountDownLatch processedTwice = new CountDownLatch(1);
        CountDownLatch newEntryTaken = new CountDownLatch(1);

        consume(uri(stream, "writers", "writer-1") + "&concurrentConsumers=3&batchSize=1", exchange -> {
            Batch batch = batchOf(exchange);
            batch.entries().forEach(entry -> {
                if (!seen.add(entry.id())) {
                    processedTwice.countDown();
                }
            });
            batches.add(batch);
            if (batch.newEntries()) {
                newEntryTaken.countDown();
                // Held a while: a re-read (XREADGROUP ... 0) going on past its own entries would take this one too
                processedTwice.await(2, TimeUnit.SECONDS);
            } else {
                // The re-read gives a reader that did not wait for it the time to take a new entry
                newEntryTaken.await(1, TimeUnit.SECONDS);
            }
        });

        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(batches).flatExtracting(Batch::entries).extracting(StreamEntry::id)
                    .containsExactlyInAnyOrderElementsOf(all);
            assertThat(pendingCount(stream, "writers")).isZero();
        });
        assertThat(batches.get(0).newEntries()).isFalse();
    }

    @Test
    void ownPendingEntryDeliveredTooOftenIsNotReReadAtStartButLeftPending() throws Exception {
        List<String> ids = append(stream, 2);
        readAndAbandon(stream, "writers", "writer-1", 10);
        // XCLAIM … RETRYCOUNT 3: the first as if it had crashed its consumer three times already
        redis.execute((RedisCallback<Object>) connection -> connection.execute("XCLAIM", bytes(stream),
                bytes("writers"), bytes("writer-1"), bytes("0"), bytes(ids.get(0)), bytes("RETRYCOUNT"), bytes("3")));

        consume(uri(stream, "writers", "writer-1") + "&maxDeliveries=2", record());

        await().atMost(WAIT).untilAsserted(() -> assertThat(pendingIds(stream, "writers", "writer-1"))
                .containsExactly(ids.get(0)));
        assertThat(batches).flatExtracting(Batch::entries).extracting(StreamEntry::id).containsExactly(ids.get(1));
    }

    @Test
    void entriesOfASlowExchangeAreKeptFromLookingIdle() throws Exception {
        append(stream, 1);
        CountDownLatch release = new CountDownLatch(1);
        consume(uri(stream, "writers", "writer-1") + "&keepAlive=100ms", exchange -> {
            release.await(WAIT.toSeconds(), TimeUnit.SECONDS);
        });

        await().atMost(WAIT).until(() -> pendingCount(stream, "writers") == 1);
        // XPENDING … IDLE: reset every 100 ms (XCLAIM … IDLE 0 JUSTID), it never reaches 500 ms while processed
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3))
                .until(() -> idleMillis(stream, "writers") < 500);
        release.countDown();
        await().atMost(WAIT).until(() -> pendingCount(stream, "writers") == 0);
    }

    @Test
    void withoutKeepAliveTheEntriesOfASlowExchangeLookIdle() throws Exception {
        append(stream, 1);
        CountDownLatch release = new CountDownLatch(1);
        consume(uri(stream, "writers", "writer-1"), exchange -> release.await(WAIT.toSeconds(), TimeUnit.SECONDS));

        await().atMost(WAIT).until(() -> pendingCount(stream, "writers") == 1);
        // The contrast to the test above: a claimer with a min-idle time of 500 ms would take this entry
        await().atMost(WAIT).until(() -> idleMillis(stream, "writers") >= 500);
        release.countDown();
    }

    @Test
    void readsNothingWhileItsReadPermitSaysNo() throws Exception {
        append(stream, 2);
        AtomicBoolean permitted = new AtomicBoolean(false);
        camel.getRegistry().bind("permit", (BooleanSupplier) permitted::get);

        consume(uri(stream, "writers", "writer-1") + "&readPermit=#permit", record());

        await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> batches.isEmpty());
        // XINFO GROUPS: not even the group was created, let alone anything delivered through it
        assertThat(groupsOf(stream)).isEmpty();
        permitted.set(true);
        await().atMost(WAIT).untilAsserted(() -> {
            assertThat(batches).flatExtracting(Batch::entries).hasSize(2);
            assertThat(pendingCount(stream, "writers")).isZero();
        });
    }

    @Test
    void createsItsGroupWhenMissingAndAgainWhenRedisLostIt() throws Exception {
        // No stream, no group: XGROUP CREATE … MKSTREAM
        consume(uri(stream, "writers", "writer-1"), record());
        await().atMost(WAIT).untilAsserted(() -> assertThat(groupsOf(stream)).containsExactly("writers"));

        // DEL: the stream and its group gone, as after a FLUSHALL; reading fails with NOGROUP until it exists again
        redis.delete(stream);
        await().atMost(WAIT).untilAsserted(() -> assertThat(groupsOf(stream)).containsExactly("writers"));
        List<String> ids = append(stream, 2);

        await().atMost(WAIT).untilAsserted(() -> assertThat(batches).flatExtracting(Batch::entries)
                .extracting(StreamEntry::id).containsExactlyElementsOf(ids));
        await().atMost(WAIT).untilAsserted(() -> assertThat(pendingCount(stream, "writers")).isZero());
    }

    @Test
    void readsAgainOnceRedisIsBackAfterARestart() throws Exception {
        append(stream, 1);
        String route = consume(uri(stream, "writers", "writer-1") + "&reconnectDelay=100ms", record());
        await().atMost(WAIT).until(() -> batches.size() == 1);

        redisServer.restart();
        // A restarted Redis without persistence: the stream and its group are gone
        await().atMost(WAIT).untilAsserted(() -> assertThat(groupsOf(stream)).containsExactly("writers"));
        List<String> ids = append(stream, 2);

        await().atMost(WAIT).untilAsserted(() -> assertThat(batches.subList(1, batches.size()))
                .flatExtracting(Batch::entries).extracting(StreamEntry::id).containsExactlyElementsOf(ids));
        await().atMost(WAIT).untilAsserted(() -> assertThat(pendingCount(stream, "writers")).isZero());
        assertThat(camel.getRouteController().getRouteStatus(route).isStarted()).isTrue();
    }

    private static String uri(String key, String group, String consumerName) {
        return "redis-stream:" + key + "?group=" + group + "&consumerName=" + consumerName + "&block=100ms";
    }

    /** A route from the endpoint to the processor; its id. */
    private String consume(String uri, Processor processor) throws Exception {
        String id = "route-" + UUID.randomUUID();
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from(uri).routeId(id).process(processor);
            }
        });
        return id;
    }

    private Processor record() {
        return exchange -> batches.add(batchOf(exchange));
    }

    @SuppressWarnings("unchecked")
    private static Batch batchOf(Exchange exchange) {
        return new Batch(exchange.getIn().getHeader(RedisStreamConstants.STREAM, String.class),
                exchange.getIn().getHeader(RedisStreamConstants.NEW_ENTRIES, Boolean.class),
                List.copyOf(exchange.getIn().getBody(List.class)));
    }

    /** XADD of entries with a field n = 1, 2, …; their ids. */
    private List<String> append(String key, int count) {
        return IntStream.rangeClosed(1, count)
                .mapToObj(n -> redis.opsForStream().add(key, Map.of("n", Integer.toString(n))).getValue())
                .toList();
    }

    /** XGROUP CREATE, then XREADGROUP … COUNT n … > and no XACK: as if the consumer crashed holding the entries. */
    private void readAndAbandon(String key, String group, String consumerName, int count) {
        redis.opsForStream().createGroup(key, ReadOffset.from("0"), group);
        redis.opsForStream().read(Consumer.from(group, consumerName), StreamReadOptions.empty().count(count),
                StreamOffset.create(key, ReadOffset.lastConsumed()));
    }

    /** XPENDING key group: the summary's count. */
    private long pendingCount(String key, String group) {
        return redis.opsForStream().pending(key, group).getTotalPendingMessages();
    }

    /** XPENDING key group - + 100 consumer */
    private List<String> pendingIds(String key, String group, String consumerName) {
        return redis.opsForStream().pending(key, Consumer.from(group, consumerName), Range.unbounded(), 100)
                .stream().map(PendingMessage::getIdAsString).toList();
    }

    /** XPENDING key group - + 1: how long the oldest pending entry has been idle. */
    private long idleMillis(String key, String group) {
        return redis.opsForStream().pending(key, group, Range.unbounded(), 1).get(0)
                .getElapsedTimeSinceLastDelivery().toMillis();
    }

    /** XINFO GROUPS: the names of the stream's groups; none while the stream does not exist. */
    private List<String> groupsOf(String key) {
        if (!Boolean.TRUE.equals(redis.hasKey(key))) {
            return List.of();
        }
        return redis.opsForStream().groups(key).stream().map(XInfoGroup::groupName).toList();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
