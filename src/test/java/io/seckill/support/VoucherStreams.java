package io.seckill.support;

import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.Consumer;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.PendingMessages;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.connection.stream.StreamReadOptions;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * One voucher's view of the orders streams: what is still in them for it, what is pending, and a consumer
 * of the group that reads and never acknowledges (one that crashed).
 */
public class VoucherStreams {

    private static final int MAX_LISTED = 100_000;

    private final StringRedisTemplate redis;
    private final RedisKeys keys;
    private final String group;

    public VoucherStreams(StringRedisTemplate redis, RedisKeys keys, StreamProperties stream) {
        this.redis = redis;
        this.keys = keys;
        this.group = stream.group();
    }

    /** The voucher's entries still in its orders stream (unread or pending). */
    public List<MapRecord<String, Object, Object>> entriesOf(long voucherId) {
        return ofVoucher(keys.ordersOf(voucherId), voucherId);
    }

    private List<MapRecord<String, Object, Object>> ofVoucher(String stream, long voucherId) {
        // XRANGE key - +
        return redis.opsForStream().range(stream, Range.unbounded()).stream()
                .filter(record -> Long.toString(voucherId).equals(String.valueOf(record.getValue().get("voucherId"))))
                .toList();
    }

    /** The voucher's dead letters (orders that need an operator). */
    public List<MapRecord<String, Object, Object>> deadLettersOf(long voucherId) {
        return ofVoucher(keys.deadLettersOf(keys.ordersOf(voucherId)), voucherId);
    }

    /** Ids of the voucher's entries delivered to some consumer of the group and not acknowledged. */
    public Set<String> pendingOf(long voucherId) {
        String stream = keys.ordersOf(voucherId);
        // XPENDING key group - + count
        PendingMessages pending = redis.opsForStream().pending(stream, group, Range.unbounded(), MAX_LISTED);
        Set<String> ofVoucher = entriesOf(voucherId).stream().map(r -> r.getId().getValue()).collect(Collectors.toSet());
        return pending.stream().map(p -> p.getIdAsString()).filter(ofVoucher::contains).collect(Collectors.toSet());
    }

    /** Pending entries of the whole stream (every voucher of the shard) held by one consumer. */
    public long pendingHeldBy(long voucherId, String consumerName) {
        // XPENDING key group - + count consumer
        return redis.opsForStream().pending(keys.ordersOf(voucherId), Consumer.from(group, consumerName),
                Range.unbounded(), MAX_LISTED).size();
    }

    /**
     * Reads every new entry of the voucher's shard as {@code consumerName} and never acknowledges them, like a
     * consumer that crashed right after its read.
     */
    public List<MapRecord<String, Object, Object>> readAndAbandon(long voucherId, String consumerName) {
        // XREADGROUP GROUP order-writers <consumerName> COUNT n STREAMS key >
        return redis.opsForStream().read(Consumer.from(group, consumerName),
                StreamReadOptions.empty().count(MAX_LISTED),
                StreamOffset.create(keys.ordersOf(voucherId), ReadOffset.lastConsumed()));
    }
}
