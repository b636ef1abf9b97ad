package io.seckill.voucher;

import io.seckill.order.OrderProperties;
import io.seckill.order.SaleStateRecovery;
import io.seckill.order.WrittenOrders;
import io.seckill.redis.AsyncScripts;
import io.seckill.redis.RedisKeys;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Notices that Redis no longer agrees with the database and the streams, and has the vouchers concerned rebuilt
 * ({@link VoucherStateRebuilder}): once before any route starts, then every {@code check-period} (route
 * {@code redis-state-check}). It surveys the vouchers on sale, and those ended so recently that unpaid orders may
 * still return units to them, in pages of {@link #PAGE} by id; a voucher ended longer ago is left alone (a table
 * of years of sales costs nothing every few seconds). For each shard:
 * <ul>
 *   <li>a voucher whose hash is gone (a flush, an eviction, an empty restart) or whose {@code rebuilding} mark is
 *       older than {@code stale-mark-after} (a rebuild that died) is rebuilt;
 *   <li>when the shard's marker key is gone (a flush, an empty restart) or the server is another one than at the
 *       last check (its {@code run_id} or {@code master_replid} changed: a restart, possibly from an older
 *       append-only file or backup, a failover to a replica), and at start-up, every voucher is surveyed: Redis
 *       saying more units remain than the streams and the database leave, or knowing fewer buyers than the
 *       database's live orders, gets it rebuilt.
 * </ul>
 * What it cannot see is written in docs/operations.md ("When Redis forgets").
 */
@Component("redisStateCheck")
public class RedisStateCheck implements SmartInitializingSingleton, SaleStateRecovery {

    private static final Logger log = LoggerFactory.getLogger(RedisStateCheck.class);
    private static final String[] IDENTITY_FIELDS = {"run_id", "master_replid"};
    private static final int CHUNK = 1000;
    /** Vouchers read from the database, and surveyed in Redis (one pipelined round trip), at a time. */
    static final int PAGE = 1000;

    private final VoucherRepository repository;
    private final VoucherStateRebuilder rebuilder;
    private final WrittenOrders writtenOrders;
    private final StringRedisTemplate redis;
    private final AsyncScripts asyncRedis;
    private final RedisKeys keys;
    private final RedisStateProperties properties;
    private final Duration endedGrace;
    private final Clock clock = Clock.systemUTC();
    /** The Redis server(s) seen by the last complete check; null before the first. */
    private volatile String lastServer;
    private volatile boolean failing;

    public RedisStateCheck(VoucherRepository repository, VoucherStateRebuilder rebuilder, WrittenOrders writtenOrders,
            StringRedisTemplate redis, AsyncScripts asyncRedis, RedisKeys keys, RedisStateProperties properties,
            OrderProperties orders) {
        this.repository = repository;
        this.rebuilder = rebuilder;
        this.writtenOrders = writtenOrders;
        this.redis = redis;
        this.asyncRedis = asyncRedis;
        this.keys = keys;
        this.properties = properties;
        // The last order of a sale falls due payment-timeout after its end and may wait max-overdue-age more
        // before it is cancelled and its unit returned to the voucher's hash.
        this.endedGrace = orders.paymentTimeout().plus(orders.expiry().maxOverdueAge());
    }

    /** At start-up, before the routes: a Redis that cannot be checked stops the start. */
    @Override
    public void afterSingletonsInstantiated() {
        checkNow();
    }

    /** The periodic check: a Redis or database that cannot be reached now is checked again next time. */
    public void check() {
        try {
            checkNow();
            if (failing) {
                log.info("Redis state check works again");
                failing = false;
            }
        } catch (RuntimeException e) {
            if (!failing) {
                log.warn("Redis state check failed ({}); trying again every {}", e.getMessage(),
                        properties.checkPeriod());
                failing = true;
            }
        }
    }

    @Override
    public CompletableFuture<Boolean> forgotten(int shard) {
        return asyncRedis.exists(keys.stateMarker(shard)).thenApply(exists -> !exists);
    }

    @Override
    public Duration retryAfter() {
        return properties.retryAfter();
    }

    private synchronized void checkNow() {
        String server = server();
        boolean otherServer = !server.equals(lastServer);
        // Why each shard is surveyed in full, decided before any voucher is read (null: only for lost hashes).
        String[] causes = new String[keys.shards()];
        for (int shard = 0; shard < keys.shards(); shard++) {
            boolean markerGone = !Boolean.TRUE.equals(redis.hasKey(keys.stateMarker(shard)));
            causes[shard] = markerGone ? "marker " + keys.stateMarker(shard) + " was gone"
                    : otherServer ? (lastServer == null ? "start-up" : "Redis server changed") : null;
        }
        List<Voucher> toRebuild = new ArrayList<>();
        Map<Long, String> causeOf = new HashMap<>();
        Instant endedAfter = clock.instant().minus(endedGrace);
        List<Voucher> page = List.of();
        do {
            long afterId = page.isEmpty() ? 0 : page.get(page.size() - 1).id();
            page = repository.onSale(afterId, endedAfter, PAGE);
            List<Voucher> surveyed = new ArrayList<>();
            List<Voucher> others = new ArrayList<>();
            for (Voucher voucher : page) {
                String cause = cause(voucher, causes);
                if (cause == null) {
                    others.add(voucher);
                } else {
                    causeOf.put(voucher.id(), cause);
                    surveyed.add(voucher);
                }
            }
            toRebuild.addAll(lost(others));
            toRebuild.addAll(disagreeing(surveyed));
        } while (page.size() == PAGE);
        // The markers come back once the vouchers are marked (until then, an order of a forgotten voucher is 503,
        // not 404), before the figures are read: a flush during the rebuild takes them again.
        rebuilder.rebuild(toRebuild, voucher -> causeOf.getOrDefault(voucher.id(), "hash gone or rebuild stale"),
                () -> {
                    for (int shard = 0; shard < keys.shards(); shard++) {
                        redis.opsForValue().setIfAbsent(keys.stateMarker(shard), Long.toString(clock.millis()));
                    }
                });
        lastServer = server;
    }

    /** Why the voucher is surveyed in full: the cause of the first of its buckets' shards that has one, or null. */
    private String cause(Voucher voucher, String[] causes) {
        return rebuilder.bucketShards(voucher).stream().map(shard -> causes[shard]).filter(Objects::nonNull)
                .findFirst().orElse(null);
    }

    /** Vouchers a bucket of which is gone or whose rebuild mark is stale. One pipelined round trip. */
    private List<Voucher> lost(List<Voucher> vouchers) {
        List<List<BucketState>> states = states(vouchers);
        List<Voucher> lost = new ArrayList<>();
        for (int i = 0; i < vouchers.size(); i++) {
            // A hash holding only a fresh mark is another instance's rebuild under way.
            if (states.get(i).stream().anyMatch(bucket -> (bucket.stock() == null && bucket.rebuilding() == null)
                    || staleMark(bucket.rebuilding()))) {
                lost.add(vouchers.get(i));
            }
        }
        return lost;
    }

    /**
     * Vouchers whose Redis state says more units remain (in their buckets and in transfers between them), or fewer
     * buyers bought, than the stores tell. Cheap enough for every start: the database's {@code sold} per voucher and
     * the streams' entries (the backlog), not every order. Read in this order, an order moving meanwhile is counted
     * once or twice, never missed: Redis first, then the streams, then which of their orders are written, then
     * {@code sold}.
     */
    private List<Voucher> disagreeing(List<Voucher> vouchers) {
        if (vouchers.isEmpty()) {
            return vouchers;
        }
        List<List<BucketState>> states = states(vouchers);
        Map<Long, SoldUnits> inStreams = rebuilder.inStreams(vouchers);
        List<WrittenOrders.Order> streamOrders = new ArrayList<>();
        inStreams.forEach((voucherId, units) -> units.queuedBuyers().forEach((orderId, buyer) ->
                streamOrders.add(new WrittenOrders.Order(orderId, voucherId, buyer))));
        Set<Long> written = new HashSet<>();
        for (int from = 0; from < streamOrders.size(); from += CHUNK) {
            written.addAll(writtenOrders.among(streamOrders.subList(from, Math.min(from + CHUNK,
                    streamOrders.size()))));
        }
        Map<Long, Long> soldInDatabase = repository.sold(vouchers.get(0).id(),
                vouchers.get(vouchers.size() - 1).id());
        List<Voucher> disagreeing = new ArrayList<>();
        for (int i = 0; i < vouchers.size(); i++) {
            Voucher voucher = vouchers.get(i);
            List<BucketState> buckets = states.get(i);
            long liveRows = soldInDatabase.getOrDefault(voucher.id(), 0L);
            long units = liveRows + inStreams.get(voucher.id()).unitsBesides(written);
            boolean agrees = buckets.stream().allMatch(bucket -> bucket.stock() != null && bucket.rebuilding() == null)
                    && buckets.stream().mapToLong(BucketState::units).sum() <= Math.max(0, voucher.stock() - units)
                    && buckets.stream().mapToLong(BucketState::buyers).sum() >= liveRows;
            if (!agrees) {
                disagreeing.add(voucher);
            }
        }
        return disagreeing;
    }

    /**
     * One stock bucket in Redis: its stock and rebuilding mark (null when absent), the units of a transfer under way
     * from it, and how many buyers it holds.
     */
    private record BucketState(String stock, String rebuilding, long inTransfer, long buyers) {

        /** The units the bucket holds, in its stock or on their way to another. */
        long units() {
            return Long.parseLong(stock) + inTransfer;
        }
    }

    /** Per voucher, per bucket: HMGET bucket stock rebuilding transferUnits, SCARD buyers; pipelined. */
    private List<List<BucketState>> states(List<Voucher> vouchers) {
        List<Object> replies = redis.executePipelined((RedisCallback<Object>) connection -> {
            for (Voucher voucher : vouchers) {
                for (int shard : rebuilder.bucketShards(voucher)) {
                    connection.hashCommands().hMGet(bytes(keys.voucherOn(shard, voucher.id())), bytes("stock"),
                            bytes("rebuilding"), bytes("transferUnits"));
                    connection.setCommands().sCard(bytes(keys.buyersOn(shard, voucher.id())));
                }
            }
            return null;
        });
        List<List<BucketState>> states = new ArrayList<>();
        int reply = 0;
        for (Voucher voucher : vouchers) {
            List<BucketState> buckets = new ArrayList<>();
            for (int bucket = 0; bucket < voucher.buckets(); bucket++) {
                List<?> fields = (List<?>) replies.get(reply++);
                long buyers = (Long) replies.get(reply++);
                buckets.add(new BucketState((String) fields.get(0), (String) fields.get(1),
                        fields.get(2) == null ? 0 : Long.parseLong((String) fields.get(2)), buyers));
            }
            states.add(buckets);
        }
        return states;
    }

    private boolean staleMark(String token) {
        return token != null
                && clock.millis() - VoucherStateRebuilder.markedAt(token) > properties.staleMarkAfter().toMillis();
    }

    /** The run ids and replication ids of the Redis server(s) (INFO server, INFO replication; every node). */
    private String server() {
        TreeSet<String> ids = new TreeSet<>();
        for (String section : new String[] {"server", "replication"}) {
            Properties info = redis.execute((RedisCallback<Properties>) c -> info(c, section));
            if (info != null) {
                info.forEach((key, value) -> {
                    for (String field : IDENTITY_FIELDS) {
                        if (key.toString().endsWith(field)) {
                            ids.add(key + "=" + value);
                        }
                    }
                });
            }
        }
        return String.join(",", ids);
    }

    private static Properties info(RedisConnection connection, String section) {
        return connection.serverCommands().info(section);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
