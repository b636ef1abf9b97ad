package io.seckill.stream;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.support.SeckillIntegrationTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.Consumer;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.connection.stream.StreamReadOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@code lua/ackEntries-1.lua} through {@link AckEntriesScript}, on a stream of its own read through the
 * service's consumer group: written entries are acknowledged and deleted in one step.
 */
@SeckillIntegrationTest
class AckEntriesScriptIntegrationTests {

    @Autowired
    AckEntriesScript ackEntries;

    @Autowired
    StreamProperties properties;

    @Autowired
    StringRedisTemplate redis;

    String stream;

    @BeforeEach
    void streamOfItsOwn() {
        stream = "lua-test:{" + UUID.randomUUID() + "}:orders";
    }

    @Test
    void acknowledgesAndDeletesTheEntriesItIsGivenAndCountsThoseThatWerePending() {
        // XADD ×3, XGROUP CREATE … 0, XREADGROUP COUNT 2: two delivered, one still unread
        List<String> ids = List.of(append("1"), append("2"), append("3"));
        redis.opsForStream().createGroup(stream, ReadOffset.from("0"), properties.group());
        List<MapRecord<String, Object, Object>> delivered = redis.opsForStream().read(
                Consumer.from(properties.group(), "writer"), StreamReadOptions.empty().count(2),
                StreamOffset.create(stream, ReadOffset.lastConsumed()));
        assertThat(delivered).hasSize(2);

        // XACK + XDEL of the two written entries
        assertThat(ackEntries.ack(stream, ids.subList(0, 2))).isEqualTo(2);

        assertThat(redis.opsForStream().pending(stream, properties.group()).getTotalPendingMessages()).isZero();
        assertThat(redis.opsForStream().range(stream, Range.unbounded()))
                .extracting(record -> record.getId().getValue()).containsExactly(ids.get(2));
    }

    @Test
    void acknowledgingAgainCountsNothingAndChangesNothing() {
        String id = append("1");
        redis.opsForStream().createGroup(stream, ReadOffset.from("0"), properties.group());
        redis.opsForStream().read(Consumer.from(properties.group(), "writer"), StreamReadOptions.empty().count(1),
                StreamOffset.create(stream, ReadOffset.lastConsumed()));
        assertThat(ackEntries.ack(stream, List.of(id))).isEqualTo(1);

        assertThat(ackEntries.ack(stream, List.of(id))).isZero();

        assertThat(redis.opsForStream().size(stream)).isZero();
    }

    private String append(String orderId) {
        return redis.opsForStream().add(stream, Map.of("orderId", orderId)).getValue();
    }
}
