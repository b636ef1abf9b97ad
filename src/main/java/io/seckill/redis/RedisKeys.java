package io.seckill.redis;

import java.util.List;
import java.util.stream.IntStream;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * The key layout of the contract. Every key of one voucher carries its shard's hash tag {@code {sN}}, so each
 * script touches a single Redis Cluster slot.
 */
@Component
public class RedisKeys {

    private static final String PREFIX = "seckill:";
    /** The self warm-up's keys (io.seckill.warmup.WarmUp): the same layout, apart from every user's. */
    private static final String WARM_UP_PREFIX = "seckill:warm-up:";
    private static final String DEAD_SUFFIX = ":dead";
    private static final String DUE_SUFFIX = ":due";
    private static final String CANCELLING_SUFFIX = ":cancelling";

    private final int shards;
    private final String prefix;

    @Autowired
    public RedisKeys(StreamProperties properties) {
        this(properties.shards(), PREFIX);
    }

    private RedisKeys(int shards, String prefix) {
        this.shards = shards;
        this.prefix = prefix;
    }

    /** The same layout under a prefix of the warm-up's own, on the same shards. */
    public RedisKeys warmUp() {
        return new RedisKeys(shards, WARM_UP_PREFIX);
    }

    public String voucher(long voucherId) {
        return tag(voucherId) + ":voucher:" + voucherId;
    }

    public String buyers(long voucherId) {
        return tag(voucherId) + ":buyers:" + voucherId;
    }

    public String ordersOf(long voucherId) {
        return tag(voucherId) + ":orders";
    }

    public List<String> orderStreams() {
        return IntStream.range(0, shards).mapToObj(shard -> prefix + "{s" + shard + "}:orders").toList();
    }

    /** Comma-separated, for the {@code redis-stream:} endpoint that reads every shard. */
    public String orderStreamsCsv() {
        return String.join(",", orderStreams());
    }

    public String deadLettersOf(String ordersStream) {
        return ordersStream + DEAD_SUFFIX;
    }

    public List<String> deadLetterStreams() {
        return orderStreams().stream().map(this::deadLettersOf).toList();
    }

    /** The shard a voucher lives on. */
    public int shardOf(long voucherId) {
        return Math.floorMod(voucherId, shards);
    }

    public int shards() {
        return shards;
    }

    /**
     * Written by the service once it checked a shard's sale state against the database; gone means the shard's
     * Redis forgot (a flush, an empty restart), with the shard's hash tag so it goes wherever its keys go.
     */
    public String stateMarker(int shard) {
        return prefix + "{s" + shard + "}:state";
    }

    /** Unpaid orders by when they fall due for cancellation (zset, score payBefore), on the stream's shard. */
    public String dueOrdersOf(String ordersStream) {
        return ordersStream + DUE_SUFFIX;
    }

    /** Orders taken for cancellation, each under a lease (zset, score lease deadline), on the stream's shard. */
    public String cancellingOrdersOf(String ordersStream) {
        return ordersStream + CANCELLING_SUFFIX;
    }

    /** The member of an unpaid order in the due and cancelling sets: {@code <orderId>:<userId>}. */
    public static String unpaidOrder(long orderId, long userId) {
        return orderId + ":" + userId;
    }

    /** Who reads as this consumer name in this group now ({@link ConsumerNameLease}). */
    public String consumerNameLease(String group, String consumerName) {
        return prefix + "consumers:" + group + ":" + consumerName;
    }

    /** A client address's budget for the API's requests but orders: a key of its own, on any slot. */
    public String requestBudget(String clientAddress) {
        return prefix + "rate-limit:requests:" + clientAddress;
    }

    /**
     * A rate-limit bucket on the voucher's shard, so the admission script takes its tokens in the same step (one
     * round trip, one slot on a cluster).
     */
    public String rateLimit(long voucherId, String kind, String subject) {
        return tag(voucherId) + ":rate-limit:" + kind + ":" + subject;
    }

    private String tag(long voucherId) {
        return prefix + "{s" + shardOf(voucherId) + "}";
    }
}
