package io.seckill.redis;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.IntStream;
import java.util.zip.CRC32;
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
    private final String instance;

    @Autowired
    public RedisKeys(StreamProperties properties) {
        this(properties.shards(), PREFIX, instanceOf(properties.consumerName()));
    }

    private RedisKeys(int shards, String prefix, String instance) {
        this.shards = shards;
        this.prefix = prefix;
        this.instance = instance;
    }

    /**
     * The same layout under a prefix of this instance's warm-up ({@code seckill:warm-up:<instance>:}), on the same
     * shards: instances started together warm up side by side, none deleting another's keys.
     */
    public RedisKeys warmUp() {
        return new RedisKeys(shards, WARM_UP_PREFIX + instance + ":", instance);
    }

    /**
     * This instance among those sharing the Redis: a digest (8 hex digits) of its consumer name, which no two live
     * instances share ({@link ConsumerNameLease}) and a restart keeps. Hex only: a name's own characters could hold
     * a hash tag's braces.
     */
    public String instance() {
        return instance;
    }

    /** A name of this layout's own, beside its keys: the warm-up's events channel, say. */
    public String named(String suffix) {
        return prefix + suffix;
    }

    private static String instanceOf(String consumerName) {
        CRC32 digest = new CRC32();
        digest.update(consumerName.getBytes(StandardCharsets.UTF_8));
        return String.format("%08x", digest.getValue());
    }

    /** The hash of the voucher's first (or only) stock bucket, on its own shard. */
    public String voucher(long voucherId) {
        return voucherOn(shardOf(voucherId), voucherId);
    }

    /**
     * The hash of the voucher's stock bucket on this shard (docs/buckets.md): each bucket of a voucher is on a shard
     * of its own, so the shard names the bucket.
     */
    public String voucherOn(int shard, long voucherId) {
        return tagOf(shard) + ":voucher:" + voucherId;
    }

    public String buyers(long voucherId) {
        return buyersOn(shardOf(voucherId), voucherId);
    }

    /** The buyers of the voucher's bucket on this shard: those whose home bucket it is. */
    public String buyersOn(int shard, long voucherId) {
        return tagOf(shard) + ":buyers:" + voucherId;
    }

    public String ordersOf(long voucherId) {
        return ordersOn(shardOf(voucherId));
    }

    public String ordersOn(int shard) {
        return tagOf(shard) + ":orders";
    }

    public List<String> orderStreams() {
        return IntStream.range(0, shards).mapToObj(this::ordersOn).toList();
    }

    /** The shard of one of {@link #orderStreams()}, of its dead letters, due or cancelling orders; -1 for none. */
    public int shardOfStream(String stream) {
        for (int shard = 0; shard < shards; shard++) {
            if (stream.startsWith(tagOf(shard) + ":orders")) {
                return shard;
            }
        }
        return -1;
    }

    /**
     * The shard of a voucher's stock bucket {@code bucket} (0 … buckets − 1): bucket 0 on the voucher's own shard,
     * each next one on the next shard, so a voucher has at most as many buckets as there are shards.
     */
    public int bucketShard(long voucherId, int bucket) {
        return Math.floorMod(shardOf(voucherId) + bucket, shards);
    }

    /** The shard of the buyer's home bucket: where each order of the buyer for this voucher is admitted. */
    public int homeShard(long voucherId, long userId, int buckets) {
        return bucketShard(voucherId, homeBucket(userId, buckets));
    }

    /**
     * The bucket a buyer belongs to among a voucher's {@code buckets}: the same for every order of the buyer, so the
     * one-order-per-buyer check stays in one script on one shard. The id is mixed first (MurmurHash3's finalizer), so
     * ids that share a pattern (all even, all multiples of the bucket count) still spread over the buckets.
     */
    public static int homeBucket(long userId, int buckets) {
        if (buckets == 1) {
            return 0;
        }
        long mixed = userId;
        mixed ^= mixed >>> 33;
        mixed *= 0xff51afd7ed558ccdL;
        mixed ^= mixed >>> 33;
        mixed *= 0xc4ceb9fe1a85ec53L;
        mixed ^= mixed >>> 33;
        return (int) Long.remainderUnsigned(mixed, buckets);
    }

    /** Transfers of units under way from the buckets of this shard (zset, member voucherId, score when taken). */
    public String transfersOn(int shard) {
        return tagOf(shard) + ":transfers";
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
        return tagOf(shard) + ":state";
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

    /** The buyer of an {@link #unpaidOrder} member. */
    public static long buyerOf(String unpaidOrder) {
        return Long.parseLong(unpaidOrder.substring(unpaidOrder.indexOf(':') + 1));
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
     * A rate-limit bucket on the shard the order is admitted on (the buyer's home bucket's), so the admission script
     * takes its tokens in the same step (one round trip, one slot on a cluster).
     */
    public String rateLimit(long voucherId, String kind, String subject) {
        return rateLimitOn(shardOf(voucherId), kind, subject);
    }

    public String rateLimitOn(int shard, String kind, String subject) {
        return tagOf(shard) + ":rate-limit:" + kind + ":" + subject;
    }

    private String tagOf(int shard) {
        return prefix + "{s" + shard + "}";
    }
}
