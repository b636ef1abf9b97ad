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

import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.Consumer;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.connection.stream.StreamReadOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@code ackEntries-1.lua} through {@link AckEntriesScript} (the {@code deleteAfterAck} option), on a stream of its
 * own read through one group: processed entries are acknowledged and leave the stream in one step, and nothing that
 * still waits (pending with another reader, unread) leaves with them.
 */
class AckEntriesScriptTests {

    private static final String GROUP = "writers";

    @RegisterExtension
    static final RedisServerExtension redisServer = new RedisServerExtension();

    StringRedisTemplate redis;
    AckEntriesScript ackEntries;
    String stream;

    @BeforeEach
    void streamOfItsOwn() {
        redis = redisServer.redis();
        ackEntries = new AckEntriesScript(redis);
        stream = "ack-test:" + UUID.randomUUID();
    }

    @Test
    void acknowledgesAndDeletesTheEntriesItIsGivenAndCountsThoseThatWerePending() {
        // XADD ×3, XGROUP CREATE … 0, XREADGROUP COUNT 2: two delivered, one still unread
        List<String> ids = List.of(append("1"), append("2"), append("3"));
        redis.opsForStream().createGroup(stream, ReadOffset.from("0"), GROUP);
        List<MapRecord<String, Object, Object>> delivered = redis.opsForStream().read(
                Consumer.from(GROUP, "writer"), StreamReadOptions.empty().count(2),
                StreamOffset.create(stream, ReadOffset.lastConsumed()));
        assertThat(delivered).hasSize(2);

        // XACK + XDEL of the two written entries
        assertThat(ackEntries.ack(stream, GROUP, ids.subList(0, 2))).isEqualTo(2);

        assertThat(redis.opsForStream().pending(stream, GROUP).getTotalPendingMessages()).isZero();
        assertThat(redis.opsForStream().range(stream, Range.unbounded()))
                .extracting(record -> record.getId().getValue()).containsExactly(ids.get(2));
    }

    @Test
    void acknowledgingAgainCountsNothingAndChangesNothing() {
        String id = append("1");
        redis.opsForStream().createGroup(stream, ReadOffset.from("0"), GROUP);
        redis.opsForStream().read(Consumer.from(GROUP, "writer"), StreamReadOptions.empty().count(1),
                StreamOffset.create(stream, ReadOffset.lastConsumed()));
        assertThat(ackEntries.ack(stream, GROUP, List.of(id))).isEqualTo(1);

        assertThat(ackEntries.ack(stream, GROUP, List.of(id))).isZero();

        assertThat(redis.opsForStream().size(stream)).isZero();
    }

    @Test
    void entriesAcknowledgedAheadOfAnOlderPendingOneGoAndThePendingOneStays() {
        // Two readers: A holds entries 1-2, B holds 3-4; 5 is unread. B's batch is written first.
        List<String> ids = List.of(append("1"), append("2"), append("3"), append("4"), append("5"));
        redis.opsForStream().createGroup(stream, ReadOffset.from("0"), GROUP);
        read("reader-a", 2);
        read("reader-b", 2);

        assertThat(ackEntries.ack(stream, GROUP, ids.subList(2, 4))).isEqualTo(2);

        // A's entries still wait for their write, 5 for its first read: nothing but B's left the stream.
        assertThat(entryIds()).containsExactly(ids.get(0), ids.get(1), ids.get(4));
        assertThat(redis.opsForStream().pending(stream, GROUP).getTotalPendingMessages()).isEqualTo(2);

        // A's batch written: everything delivered is acknowledged, only the unread entry is left.
        assertThat(ackEntries.ack(stream, GROUP, ids.subList(0, 2))).isEqualTo(2);

        assertThat(entryIds()).containsExactly(ids.get(4));
        assertThat(redis.opsForStream().pending(stream, GROUP).getTotalPendingMessages()).isZero();
    }

    @Test
    void anEntryPendingWithACrashedReaderIsNeverRemovedWithTheNewerOnesAroundIt() {
        // The crashed reader holds 2 (its batch never written); 1 and 3 were read and written by others.
        List<String> ids = List.of(append("1"), append("2"), append("3"));
        redis.opsForStream().createGroup(stream, ReadOffset.from("0"), GROUP);
        read("reader-a", 1);
        read("crashed", 1);
        read("reader-b", 1);

        assertThat(ackEntries.ack(stream, GROUP, List.of(ids.get(0)))).isEqualTo(1);
        assertThat(ackEntries.ack(stream, GROUP, List.of(ids.get(2)))).isEqualTo(1);

        assertThat(entryIds()).containsExactly(ids.get(1));
        assertThat(redis.opsForStream().pending(stream, GROUP).getTotalPendingMessages()).isEqualTo(1);
    }

    @Test
    void aBatchAroundAnEntryLeftPendingLeavesThatEntryAndNothingElseOfTheBatch() {
        // One reader re-reads its own pending entries 1-5 and leaves 3 pending (delivered too often: the
        // claimer's); the others are written. 1-2 lie below 3 (trimmed), 4-5 above it (deleted one by one).
        List<String> ids = List.of(append("1"), append("2"), append("3"), append("4"), append("5"));
        redis.opsForStream().createGroup(stream, ReadOffset.from("0"), GROUP);
        read("reader-a", 5);

        assertThat(ackEntries.ack(stream, GROUP, List.of(ids.get(0), ids.get(1), ids.get(3), ids.get(4)))).isEqualTo(4);

        assertThat(entryIds()).containsExactly(ids.get(2));
        assertThat(redis.opsForStream().pending(stream, GROUP).getTotalPendingMessages()).isEqualTo(1);
    }

    private void read(String consumer, int count) {
        assertThat(redis.opsForStream().read(Consumer.from(GROUP, consumer),
                StreamReadOptions.empty().count(count), StreamOffset.create(stream, ReadOffset.lastConsumed())))
                .hasSize(count);
    }

    private List<String> entryIds() {
        return redis.opsForStream().range(stream, Range.unbounded()).stream()
                .map(record -> record.getId().getValue()).toList();
    }

    private String append(String n) {
        return redis.opsForStream().add(stream, Map.of("n", n)).getValue();
    }
}
