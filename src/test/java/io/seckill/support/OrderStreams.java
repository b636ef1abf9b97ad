package io.seckill.support;

import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.api.async.RedisStreamAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.springframework.dao.DataAccessException;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.PendingMessages;
import org.springframework.data.redis.connection.stream.PendingMessagesSummary;
import org.springframework.data.redis.connection.stream.RecordId;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Shard 0's order stream {@code seckill:{s0}:orders} and its dead letters as a test sees them: raw entries in,
 * what is pending and what was dead-lettered out.
 */
public class OrderStreams {

    public static final String ORDERS = "seckill:{s0}:orders";
    public static final String DEAD = "seckill:{s0}:orders:dead";
    public static final String GROUP = "order-writers";

    private static final RedisScript<String> ADD_PENDING = RedisScript.of("""
            local id = redis.call('XADD', KEYS[1], '*', unpack(ARGV, 5))
            redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, id, 'IDLE', ARGV[3], 'RETRYCOUNT', ARGV[4],
                'FORCE', 'LASTID', id)
            return id
            """, String.class);

    private static final RedisScript<Object> HAND_OVER = RedisScript.of(
            "return redis.call('XCLAIM', KEYS[1], ARGV[1], ARGV[2], 0, ARGV[3], 'JUSTID')", Object.class);

    private final StringRedisTemplate redis;

    public OrderStreams(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** An entry shaped like an accepted order. */
    public static Map<String, String> order(long orderId, long voucherId, long userId) {
        Map<String, String> fields = new LinkedHashMap<>();
        fields.put("orderId", Long.toString(orderId));
        fields.put("voucherId", Long.toString(voucherId));
        fields.put("userId", Long.toString(userId));
        fields.put("acceptedAt", Long.toString(System.currentTimeMillis()));
        return fields;
    }

    /** XADD, one entry with any fields. */
    public String add(Map<String, String> fields) {
        return redis.opsForStream().add(ORDERS, fields).getValue();
    }

    /** MULTI, XADD each, EXEC: the writer reads them all in one batch. */
    public List<String> addTogether(List<Map<String, String>> entries) {
        List<Object> results = redis.execute(new SessionCallback<List<Object>>() {
            @Override
            @SuppressWarnings({"unchecked", "rawtypes"})
            public List<Object> execute(RedisOperations operations) throws DataAccessException {
                operations.multi();
                for (Map<String, String> fields : entries) {
                    operations.opsForStream().add(ORDERS, fields);
                }
                return operations.exec();
            }
        });
        List<String> ids = new ArrayList<>();
        results.forEach(id -> ids.add(((RecordId) id).getValue()));
        return ids;
    }

    /**
     * Appends an entry that a consumer named {@code owner} read {@code deliveries} times and never acknowledged,
     * {@code idleMillis} ago (it crashed), without any live consumer seeing it: one script does XADD, then XCLAIM
     * … IDLE … RETRYCOUNT … FORCE LASTID, which moves the group past the entry so XREADGROUP > skips it.
     */
    public String addPendingFor(String owner, long deliveries, long idleMillis, Map<String, String> fields) {
        List<String> args = new ArrayList<>(List.of(GROUP, owner, Long.toString(idleMillis),
                Long.toString(deliveries)));
        fields.forEach((name, value) -> {
            args.add(name);
            args.add(value);
        });
        return redis.execute(ADD_PENDING, List.of(ORDERS), args.toArray());
    }

    /**
     * XCLAIM … JUSTID: hands an entry to another consumer, as a sweeper of another instance would, without
     * counting a delivery.
     */
    public void handOver(String id, String newOwner) {
        redis.execute(HAND_OVER, List.of(ORDERS), GROUP, newOwner, id);
    }

    /** XRANGE: the id of the entry carrying this order id, or null. */
    public String idOf(long orderId) {
        for (MapRecord<String, Object, Object> record : redis.opsForStream().range(ORDERS, Range.unbounded())) {
            if (Long.toString(orderId).equals(record.getValue().get("orderId"))) {
                return record.getId().getValue();
            }
        }
        return null;
    }

    /** XPENDING … IDLE-less extended form: who holds this entry now, or null. */
    public String holderOf(String id) {
        PendingMessages pending = redis.opsForStream().pending(ORDERS, GROUP, Range.closed(id, id), 1);
        return pending.isEmpty() ? null : pending.get(0).getConsumerName();
    }

    /** XPENDING … id id 1: how often this entry was delivered, 0 once it is acknowledged. */
    public long deliveriesOf(String id) {
        PendingMessages pending = redis.opsForStream().pending(ORDERS, GROUP, Range.closed(id, id), 1);
        return pending.isEmpty() ? 0 : pending.get(0).getTotalDeliveryCount();
    }

    /**
     * XAUTOCLAIM … JUSTID as another instance's sweeper would (JUSTID, so the test itself counts no delivery):
     * the ids it took over.
     */
    public List<String> autoClaimAs(String consumer, long minIdleMillis) {
        return redis.execute((RedisCallback<List<String>>) connection -> {
            @SuppressWarnings("unchecked")
            RedisStreamAsyncCommands<byte[], byte[]> commands =
                    (RedisStreamAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
            XAutoClaimArgs<byte[]> args = XAutoClaimArgs.Builder.xautoclaim(
                    io.lettuce.core.Consumer.from(bytes(GROUP), bytes(consumer)), Duration.ofMillis(minIdleMillis),
                    "0-0").count(100).justid();
            try {
                return commands.xautoclaim(bytes(ORDERS), args).get(10, TimeUnit.SECONDS).getMessages().stream()
                        .filter(message -> message != null && message.getId() != null)
                        .map(StreamMessage::getId).toList();
            } catch (Exception e) {
                throw new IllegalStateException("XAUTOCLAIM failed", e);
            }
        });
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** XLEN: entries not yet written (unread or pending); written ones are deleted with their XACK. */
    public long length() {
        Long size = redis.opsForStream().size(ORDERS);
        return size == null ? 0 : size;
    }

    /** XPENDING summary: entries delivered and not acknowledged. */
    public long pending() {
        PendingMessagesSummary summary = redis.opsForStream().pending(ORDERS, GROUP);
        return summary == null ? 0 : summary.getTotalPendingMessages();
    }

    /** XRANGE id id. */
    public boolean contains(String id) {
        return !redis.opsForStream().range(ORDERS, Range.closed(id, id)).isEmpty();
    }

    /** XRANGE of the dead letters, oldest first, as field maps (with their id under "id"). */
    public List<Map<String, String>> deadLetters() {
        List<Map<String, String>> letters = new ArrayList<>();
        for (MapRecord<String, Object, Object> record : redis.opsForStream().range(DEAD, Range.unbounded())) {
            Map<String, String> fields = new LinkedHashMap<>();
            fields.put("id", record.getId().getValue());
            record.getValue().forEach((k, v) -> fields.put(k.toString(), v.toString()));
            letters.add(fields);
        }
        return letters;
    }

    public long deadLetterCount() {
        Long size = redis.opsForStream().size(DEAD);
        return size == null ? 0 : size;
    }

    public void clearDeadLetters() {
        redis.delete(DEAD);
    }

    public boolean quiet() {
        return length() == 0 && pending() == 0;
    }

}
