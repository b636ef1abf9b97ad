package io.seckill.deadletter;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.seckill.order.OrderRejectedException;
import io.seckill.redis.RedisKeys;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.camel.component.redis.stream.StreamEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.Limit;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.RecordId;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The dead-letter streams {@code seckill:{sN}:orders:dead}: orders that need an operator. Moving in and
 * replaying out are each one Lua script, so neither can lose or double an order.
 *
 * <p>A dead letter's id names its shard, {@code s2:1700000000000-0}: stream ids are unique only within one
 * stream, and two shards' dead letters can carry the same one.
 */
@Component("deadLetters")
public class DeadLetters {

    private static final Logger log = LoggerFactory.getLogger(DeadLetters.class);
    private static final int MAX_REASON_LENGTH = 500;
    private static final int REPLAY_PAGE = 500;
    private static final Pattern ID = Pattern.compile("s(\\d{1,9}):(\\d+-\\d+)");
    /** A reason that is a name (OVERSOLD, DUPLICATE_BUYER, …) is a metric tag as it is; free text counts as OTHER. */
    private static final Pattern REASON_NAME = Pattern.compile("[A-Z][A-Z_]{0,39}");
    private static final String OTHER = "OTHER";

    private final MoveToDeadLettersScript moveToDeadLetters;
    private final ReplayDeadLetterScript replayDeadLetter;
    private final StringRedisTemplate redis;
    private final RedisKeys keys;
    private final MeterRegistry meters;

    public DeadLetters(MoveToDeadLettersScript moveToDeadLetters, ReplayDeadLetterScript replayDeadLetter,
            StringRedisTemplate redis, RedisKeys keys, MeterRegistry meters) {
        this.moveToDeadLetters = moveToDeadLetters;
        this.replayDeadLetter = replayDeadLetter;
        this.redis = redis;
        this.keys = keys;
        this.meters = meters;
        // Exported at 0 from the start: increase() and rate() see no increase in a series that is born at 1, so
        // the first OVERSOLD of an instance would page no one (ops/prometheus/seckill-alerts.yaml).
        Arrays.stream(OrderRejectedException.Reason.values()).map(Enum::name).forEach(this::addedCounter);
        addedCounter(OTHER);
    }

    /**
     * Called by the dead-letter route with the entry and why it goes there. Fails when this
     * instance no longer holds the entry (another one claimed it meanwhile and may be writing it): the batch must
     * then stay pending rather than be acknowledged as if this entry were dealt with.
     */
    public void deadLetter(StreamEntry entry, String reason) {
        if (!moveIfHeld(entry, reason)) {
            throw new IllegalStateException("Entry " + entry.id() + " of " + entry.stream()
                    + " is held by another consumer now; it decides what becomes of it");
        }
    }

    /** @return whether the entry was moved; false when this instance no longer holds it (nothing changed) */
    private boolean moveIfHeld(StreamEntry entry, String reason) {
        String why = reason == null || reason.isBlank() ? "unknown failure" : abbreviate(reason);
        Optional<String> deadId = moveToDeadLetters.move(entry, why);
        if (deadId.isPresent()) {
            // seckill.dead.letters.added{reason=OVERSOLD|DUPLICATE_BUYER|…|OTHER}
            addedCounter(REASON_NAME.matcher(why).matches() ? why : OTHER).increment();
            log.warn("Dead letter {}: orderId={} entry {} of {}: {}",
                    id(keys.deadLettersOf(entry.stream()), deadId.get()), entry.fields().get("orderId"),
                    entry.id(), entry.stream(), why);
        } else {
            log.info("Entry {} of {} (orderId={}) is no longer held by this instance; not dead-lettered here",
                    entry.id(), entry.stream(), entry.fields().get("orderId"));
        }
        return deadId.isPresent();
    }

    private Counter addedCounter(String reason) {
        return Counter.builder("seckill.dead.letters.added").description("Orders moved to the dead letters, by reason")
                .tag("reason", reason).register(meters);
    }

    public long count() {
        long count = 0;
        for (String stream : keys.deadLetterStreams()) {
            Long size = redis.opsForStream().size(stream);
            count += size == null ? 0 : size;
        }
        return count;
    }

    /** The oldest dead letters first, at most {@code max}, across every shard. */
    public List<DeadLetter> list(int max) {
        List<DeadLetter> letters = new ArrayList<>();
        for (String stream : keys.deadLetterStreams()) {
            if (letters.size() >= max) {
                break;
            }
            // XRANGE key - + COUNT max
            List<MapRecord<String, Object, Object>> records = redis.opsForStream().range(stream, Range.unbounded(),
                    Limit.limit().count(max - letters.size()));
            if (records != null) {
                records.forEach(record -> letters.add(DeadLetter.of(id(stream, record.getId().getValue()),
                        record.getValue())));
            }
        }
        return letters;
    }

    /** @return the id of the order's new entry on its orders stream, empty when no dead letter has this id */
    public Optional<String> replay(String deadLetterId) {
        return located(deadLetterId).flatMap(letter -> replay(letter.deadStream(), letter.streamId()));
    }

    private Optional<String> replay(String deadStream, String streamId) {
        String ordersStream = deadStream.substring(0, deadStream.length() - ":dead".length());
        Optional<String> newId = replayDeadLetter.replay(deadStream, ordersStream, streamId);
        newId.ifPresent(id -> log.info("Dead letter {} replayed onto {} as {}", id(deadStream, streamId),
                ordersStream, id));
        return newId;
    }

    /**
     * Replays the dead letters there are now. An order that fails again comes back as a newer dead letter, which
     * this call leaves alone; otherwise it would replay the same poison entries for as long as the writer keeps
     * returning them.
     *
     * @return how many dead letters were replayed
     */
    public int replayAll() {
        int replayed = 0;
        for (String deadStream : keys.deadLetterStreams()) {
            // XREVRANGE key + - COUNT 1: the newest dead letter when the call began
            List<MapRecord<String, Object, Object>> newest = redis.opsForStream().reverseRange(deadStream,
                    Range.unbounded(), Limit.limit().count(1));
            if (newest == null || newest.isEmpty()) {
                continue;
            }
            Range<String> upToNewest = Range.closed("-", newest.get(0).getId().getValue());
            List<MapRecord<String, Object, Object>> page;
            // XRANGE key - newest COUNT 500: each replay deletes its dead letter, so the next page starts fresh
            while (!(page = redis.opsForStream().range(deadStream, upToNewest, Limit.limit().count(REPLAY_PAGE)))
                    .isEmpty()) {
                for (MapRecord<String, Object, Object> letter : page) {
                    if (replay(deadStream, letter.getId().getValue()).isPresent()) {
                        replayed++;
                    }
                }
            }
        }
        return replayed;
    }

    /** @return whether a dead letter with this id existed and is now gone */
    public boolean discard(String deadLetterId) {
        Optional<Located> letter = located(deadLetterId);
        if (letter.isEmpty()) {
            return false;
        }
        String deadStream = letter.get().deadStream();
        // XRANGE key id id: whose order it was, read before it goes
        List<MapRecord<String, Object, Object>> entry = redis.opsForStream().range(deadStream,
                Range.closed(letter.get().streamId(), letter.get().streamId()));
        // XDEL key id
        Long deleted = redis.opsForStream().delete(deadStream, RecordId.of(letter.get().streamId()));
        if (deleted == null || deleted == 0) {
            return false;
        }
        if (entry != null && !entry.isEmpty()) {
            forgetUnpaid(deadStream, entry.get(0).getValue());
        }
        log.warn("Dead letter {} discarded by an operator", deadLetterId);
        return true;
    }

    /**
     * A discarded order will never be written, so it can never be paid or cancelled: its place among the due orders
     * (put there when it was accepted) goes with it. Kept, it was taken up for cancellation, found unwritten and
     * put back every few seconds, for ever.
     */
    private void forgetUnpaid(String deadStream, Map<Object, Object> fields) {
        Object orderId = fields.get("orderId");
        Object userId = fields.get("userId");
        if (orderId == null || userId == null) {
            return;
        }
        String orders = keys.orderStreams().get(keys.deadLetterStreams().indexOf(deadStream));
        String member = orderId + ":" + userId;
        // ZREM seckill:{sN}:orders:due <orderId>:<userId>, and the same of …:cancelling
        redis.opsForZSet().remove(keys.dueOrdersOf(orders), member);
        redis.opsForZSet().remove(keys.cancellingOrdersOf(orders), member);
    }

    /** The id an operator sees: the shard, then the id within its dead-letter stream. */
    private String id(String deadStream, String streamId) {
        return "s" + keys.deadLetterStreams().indexOf(deadStream) + ":" + streamId;
    }

    /** The dead-letter stream and stream id an operator's id names; empty for anything else. */
    private Optional<Located> located(String deadLetterId) {
        Matcher id = deadLetterId == null ? null : ID.matcher(deadLetterId.strip());
        if (id == null || !id.matches()) {
            return Optional.empty();
        }
        int shard = Integer.parseInt(id.group(1));
        List<String> deadStreams = keys.deadLetterStreams();
        return shard < deadStreams.size() ? Optional.of(new Located(deadStreams.get(shard), id.group(2)))
                : Optional.empty();
    }

    private record Located(String deadStream, String streamId) {}

    private static String abbreviate(String reason) {
        return reason.length() <= MAX_REASON_LENGTH ? reason : reason.substring(0, MAX_REASON_LENGTH) + "…";
    }

    /** What an operator sees of a dead letter. */
    public record DeadLetter(String id, String orderId, String voucherId, String userId, String reason,
            String deliveries, String failedAt) {

        static DeadLetter of(String id, Map<Object, Object> fields) {
            return new DeadLetter(id, field(fields, "orderId"), field(fields, "voucherId"), field(fields, "userId"),
                    field(fields, "reason"), field(fields, "deliveries"), field(fields, "failedAt"));
        }

        private static String field(Map<Object, Object> fields, String name) {
            Object value = fields.get(name);
            return value == null ? "" : value.toString();
        }
    }
}
