package io.seckill.sweeper;

import io.lettuce.core.Consumer;
import io.lettuce.core.Limit;
import io.lettuce.core.Range;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.StreamMessage;
import io.lettuce.core.XAutoClaimArgs;
import io.lettuce.core.api.async.RedisStreamAsyncCommands;
import io.lettuce.core.models.stream.ClaimedMessages;
import io.lettuce.core.models.stream.PendingMessage;
import io.seckill.config.RedisOutage;
import io.seckill.order.DatabaseOutages;
import io.seckill.order.WrittenOrders;
import io.seckill.redis.ConsumerNameLease;
import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.apache.camel.component.redis.stream.AckEntriesScript;
import org.apache.camel.component.redis.stream.InFlightEntries;
import org.apache.camel.component.redis.stream.StreamEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.stereotype.Component;

/**
 * Takes over entries that waited too long unacknowledged (their consumer crashed, or a batch failed and its
 * retries ran out): XAUTOCLAIM hands them to this instance atomically, so two instances sweeping at once never
 * both get one. An entry delivered more than {@code maxDeliveries} times goes to the dead letters; the rest go
 * back through the order writer.
 *
 * <p>An outage must not push entries over {@code maxDeliveries} into the dead letters, and every claim counts as
 * a delivery. So it claims nothing while the database refuses connections, and while writes meet an outage on
 * connections that still validate (a read-only standby, a full disk, lock timeouts: {@link DatabaseOutages}) it
 * claims with JUSTID, which counts no delivery, writes what it claimed as a probe and dead-letters nothing; the
 * first probe that is written ends that. An entry over the limit whose order is in the database already (its
 * writer died between commit and acknowledgement) is acknowledged, not dead-lettered.
 *
 * <p>It claims nothing while another instance holds this instance's consumer name, and keeps what it claimed
 * fresh while it writes it ({@link InFlightEntries}), so no sweeper claims it a second time meanwhile.
 *
 * <p>Spring Data Redis has no XAUTOCLAIM, so this speaks Lettuce through the connection's native handle.
 */
@Component("pendingSweeper")
public class PendingSweeper {

    private static final Logger log = LoggerFactory.getLogger(PendingSweeper.class);
    private static final long COMMAND_TIMEOUT_SECONDS = 10;
    private static final String START = "0-0";

    private final RedisConnectionFactory connectionFactory;
    private final RedisKeys keys;
    private final StreamProperties stream;
    private final SweeperProperties sweeper;
    private final WrittenOrders writtenOrders;
    private final AckEntriesScript ackEntries;
    private final DatabaseOutages outages;
    private final InFlightEntries inFlight;
    private final ConsumerNameLease lease;
    /** How long after the last outage met writing the sweeper keeps probing without counting deliveries. */
    private final Duration writesFailingWindow;
    private volatile boolean databaseWasDown;
    private volatile boolean redisWasDown;
    /** What the last sweep claimed, kept fresh until written or until the next sweep. */
    private volatile InFlightEntries.Hold claimedHold;
    /** Where the last sweep of each stream stopped, so a long pending list is walked, not re-read from its head. */
    private final Map<String, String> cursors = new ConcurrentHashMap<>();

    public PendingSweeper(RedisConnectionFactory connectionFactory, RedisKeys keys, StreamProperties stream,
            SweeperProperties sweeper, WrittenOrders writtenOrders,
            AckEntriesScript ackEntries, DatabaseOutages outages, InFlightEntries inFlight, ConsumerNameLease lease) {
        this.connectionFactory = connectionFactory;
        this.keys = keys;
        this.stream = stream;
        this.sweeper = sweeper;
        this.writtenOrders = writtenOrders;
        this.ackEntries = ackEntries;
        this.outages = outages;
        this.inFlight = inFlight;
        this.lease = lease;
        // A probe claims entries again only once they idled min-idle: an outage still there shows within that.
        this.writesFailingWindow = Duration.ofMillis(2 * sweeper.minIdleMillis() + sweeper.periodMillis());
    }

    /**
     * How often whoever holds entries of the group refreshes them so that no sweep claims them from a live holder:
     * the order writer's {@code redis-stream:} endpoint is given it as its {@code keepAlive}, in milliseconds.
     */
    public long keepAliveMillis() {
        return sweeper.keepAliveMillis();
    }

    /**
     * What one sweep claimed (possibly from several streams).
     *
     * @param toWrite entries to write again
     * @param exhausted entries delivered more than {@code max-deliveries} times and not written: the route sends
     *     each to the dead letters
     */
    public record Sweep(List<StreamEntry> toWrite, List<StreamEntry> exhausted) {

        static final Sweep NOTHING = new Sweep(List.of(), List.of());
    }

    public Sweep claimIdle() throws Exception {
        // The timer route runs one sweep at a time: what the last one claimed is written or failed by now.
        release();
        if (!lease.held() || !databaseReachable()) {
            return Sweep.NOTHING;
        }
        boolean probe = outages.writesFailing(writesFailingWindow);
        List<StreamEntry> toWrite = new ArrayList<>();
        List<StreamEntry> exhausted = new ArrayList<>();
        try (RedisConnection connection = connectionFactory.getConnection()) {
            @SuppressWarnings("unchecked")
            RedisStreamAsyncCommands<byte[], byte[]> commands =
                    (RedisStreamAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
            for (String key : keys.orderStreams()) {
                toWrite.addAll(probe ? probe(commands, key) : claim(commands, key, exhausted));
            }
        } catch (Exception e) {
            // Redis away: nothing can be claimed, and a stack trace on every tick says nothing new.
            if (RedisOutage.behind(e).isEmpty()) {
                throw e;
            }
            if (!redisWasDown) {
                log.warn("Redis unavailable ({}); sweeping waits until it is back", e.getMessage());
                redisWasDown = true;
            }
            return Sweep.NOTHING;
        }
        if (redisWasDown) {
            log.info("Redis reachable again; sweeping resumes");
            redisWasDown = false;
        }
        claimedHold = inFlight.hold(stream.group(), stream.consumerName(), toWrite);
        return new Sweep(toWrite, exhausted);
    }

    /**
     * Called by the route once a sweep's claim is written (some entries perhaps dead-lettered on the way):
     * acknowledges them, and the outage writes met, if any, is over.
     */
    public void written(List<StreamEntry> claimed) {
        ackEntries.ack(stream.group(), claimed);
        outages.writeSucceeded();
        release();
    }

    private void release() {
        InFlightEntries.Hold hold = claimedHold;
        if (hold != null) {
            hold.close();
            claimedHold = null;
        }
    }

    private List<StreamEntry> claim(RedisStreamAsyncCommands<byte[], byte[]> commands, String key,
            List<StreamEntry> exhausted) throws Exception {
        List<StreamMessage<byte[], byte[]>> messages = autoClaim(commands, key, false);
        if (messages.isEmpty()) {
            return List.of();
        }
        byte[] streamKey = bytes(key);
        Map<String, Long> deliveries = deliveries(commands, streamKey, messages);
        List<StreamEntry> toWrite = new ArrayList<>(messages.size());
        List<StreamEntry> exceeded = new ArrayList<>();
        for (StreamMessage<byte[], byte[]> message : messages) {
            StreamEntry entry = entry(key, message);
            if (deliveries.getOrDefault(entry.id(), 0L) > sweeper.maxDeliveries()) {
                exceeded.add(entry);
            } else {
                toWrite.add(entry);
            }
        }
        int given = exhausted.size();
        exhausted.addAll(notWritten(exceeded));
        log.info("Sweep of {}: claimed {} idle entries, {} to write again, {} for the dead letters", key,
                messages.size(), toWrite.size(), exhausted.size() - given);
        return toWrite;
    }

    /**
     * Writes are failing on connections that validate: claims with JUSTID, which counts no delivery, and writes
     * all it claimed. The write tells whether the outage is over; nothing is dead-lettered meanwhile.
     */
    private List<StreamEntry> probe(RedisStreamAsyncCommands<byte[], byte[]> commands, String key) throws Exception {
        List<StreamMessage<byte[], byte[]>> claimed = autoClaim(commands, key, true);
        if (claimed.isEmpty()) {
            return List.of();
        }
        byte[] streamKey = bytes(key);
        // XRANGE key id id for each: JUSTID answered ids only
        List<RedisFuture<List<StreamMessage<byte[], byte[]>>>> reads = new ArrayList<>(claimed.size());
        for (StreamMessage<byte[], byte[]> message : claimed) {
            reads.add(commands.xrange(streamKey, Range.create(message.getId(), message.getId())));
        }
        List<StreamEntry> toWrite = new ArrayList<>(claimed.size());
        for (RedisFuture<List<StreamMessage<byte[], byte[]>>> read : reads) {
            read.get(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS).forEach(message -> toWrite.add(entry(key, message)));
        }
        log.warn("Sweep of {}: database writes are failing; probing with {} idle entries, no delivery counted",
                key, toWrite.size());
        return toWrite;
    }

    /** XAUTOCLAIM key group consumer min-idle-time start COUNT n [JUSTID], walking on from the last sweep. */
    private List<StreamMessage<byte[], byte[]>> autoClaim(RedisStreamAsyncCommands<byte[], byte[]> commands,
            String key, boolean justIds) throws Exception {
        String cursor = cursors.getOrDefault(key, START);
        XAutoClaimArgs<byte[]> args = XAutoClaimArgs.Builder
                .xautoclaim(Consumer.from(bytes(stream.group()), bytes(stream.consumerName())),
                        Duration.ofMillis(sweeper.minIdleMillis()), cursor)
                .count(sweeper.batchSize());
        if (justIds) {
            args.justid();
        }
        ClaimedMessages<byte[], byte[]> claimed;
        try {
            claimed = commands.xautoclaim(bytes(key), args).get(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (String.valueOf(e.getCause()).contains("NOGROUP")) {
                return List.of(); // no consumer has created the group yet: nothing can be pending
            }
            throw e;
        }
        cursors.put(key, claimed.getId());
        return claimed.getMessages().stream().filter(m -> m != null && m.getId() != null).toList();
    }

    /**
     * Entries delivered too often whose order is not written: the dead letters' (the route sends them there). Those
     * written already (the writer died between commit and acknowledgement) are acknowledged now.
     */
    private List<StreamEntry> notWritten(List<StreamEntry> exceeded) {
        if (exceeded.isEmpty()) {
            return List.of();
        }
        Set<String> written = writtenOrders(exceeded);
        List<StreamEntry> done = new ArrayList<>();
        List<StreamEntry> notWritten = new ArrayList<>();
        for (StreamEntry entry : exceeded) {
            (written.contains(entry.fields().get("orderId")) ? done : notWritten).add(entry);
        }
        ackEntries.ack(stream.group(), done);
        return notWritten;
    }

    /** The orderIds of these entries that are written as they are: the same voucher and buyer in the row. */
    private Set<String> writtenOrders(List<StreamEntry> entries) {
        List<WrittenOrders.Order> orders = new ArrayList<>();
        for (StreamEntry entry : entries) {
            try {
                orders.add(new WrittenOrders.Order(Long.parseLong(entry.fields().getOrDefault("orderId", "")),
                        Long.parseLong(entry.fields().getOrDefault("voucherId", "")),
                        Long.parseLong(entry.fields().getOrDefault("userId", ""))));
            } catch (NumberFormatException malformed) {
                // never written
            }
        }
        Set<String> written = new HashSet<>();
        writtenOrders.among(orders).forEach(orderId -> written.add(Long.toString(orderId)));
        return written;
    }

    private boolean databaseReachable() {
        boolean reachable = writtenOrders.reachable();
        if (reachable == databaseWasDown) {
            if (reachable) {
                log.info("Database reachable again; sweeping resumes");
            } else {
                log.warn("Database unreachable; pending entries stay where they are until it is back");
            }
            databaseWasDown = !reachable;
        }
        return reachable;
    }

    /** XPENDING over the claimed range: XAUTOCLAIM itself does not say how often an entry was delivered. */
    private Map<String, Long> deliveries(RedisStreamAsyncCommands<byte[], byte[]> commands, byte[] streamKey,
            List<StreamMessage<byte[], byte[]>> messages) throws Exception {
        String first = messages.get(0).getId();
        String last = messages.get(messages.size() - 1).getId();
        List<PendingMessage> pending = commands.xpending(streamKey,
                        Consumer.from(bytes(stream.group()), bytes(stream.consumerName())),
                        Range.create(first, last), Limit.from(Math.max(messages.size(), sweeper.batchSize()) * 2L))
                .get(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        Map<String, Long> counts = new HashMap<>();
        for (PendingMessage message : pending) {
            counts.put(message.getId(), message.getRedeliveryCount());
        }
        return counts;
    }

    private static StreamEntry entry(String key, StreamMessage<byte[], byte[]> message) {
        Map<String, String> fields = new LinkedHashMap<>();
        if (message.getBody() != null) {
            message.getBody().forEach((k, v) -> fields.put(text(k), text(v)));
        }
        return new StreamEntry(key, message.getId(), fields);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] bytes) {
        return bytes == null ? "" : new String(bytes, StandardCharsets.UTF_8);
    }
}
