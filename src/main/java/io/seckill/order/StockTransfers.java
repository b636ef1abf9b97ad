package io.seckill.order;

import io.seckill.redis.AsyncScripts;
import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import io.seckill.redis.RedisKeys;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Moves units between the stock buckets of one voucher (docs/buckets.md), so a voucher sells out completely although
 * each buyer orders from a home bucket of their own: when that one is empty, half of another bucket's units move to
 * it. A transfer is three scripts on two shards, none of which can create or lose a unit: takeUnits-2.lua takes the
 * units from the source and records the transfer there, creditUnits-1.lua credits the destination once, and
 * finishTransfer-2.lua clears the record. Whoever finds a transfer under way completes it (the steps count once
 * however often they are repeated), and {@link #completeStale} completes those a crash left half-done.
 */
@Component("stockTransfers")
public class StockTransfers {

    /** What a refill came to. */
    public enum Refill {
        /**
         * Units moved (to the buyer's home bucket, or where a transfer under way was going), or may have: admit
         * again.
         */
        MOVED,
        /** No other bucket holds a unit, and no transfer is under way from one: the voucher is sold out. */
        EMPTY,
        /** The voucher is being rebuilt, or a bucket's hash is gone and is about to be: try again shortly. */
        REBUILDING
    }

    /** A transfer under way, as its source records it. */
    record Transfer(long voucherId, int source, long seq, int destination, long units, String gen) {}

    private static final Logger log = LoggerFactory.getLogger(StockTransfers.class);
    private static final long TAKEN = 0;
    private static final long UNDER_WAY = 2;
    private static final long EMPTY = 4;
    private static final long REBUILDING = 6;
    private static final long CREDITED = 0;
    private static final long CREDITED_BEFORE = 2;
    /**
     * A transfer recorded longer ago than this is completed by the sweep. Completing one while its taker still
     * does is harmless (each step counts once); the wait only spares a round trip that was not needed.
     */
    private static final long STALE_AFTER_MILLIS = 1000;
    /**
     * Round trips one refill may take (two passes over 32 buckets, or a crowd moving the last units about): then
     * the admission is tried again, as after a refill.
     */
    private static final int MAX_STEPS = 128;

    private final AsyncScripts redis;
    private final StringRedisTemplate template;
    @SuppressWarnings("rawtypes")
    private final LuaScript<List> take;
    private final LuaScript<Long> credit;
    private final LuaScript<Long> finish;
    @SuppressWarnings("rawtypes")
    private final LuaScript<List> readBucket;
    private final RedisKeys keys;
    private final String saleViewChannel;
    private volatile boolean failing;

    public StockTransfers(AsyncScripts redis, StringRedisTemplate template, LuaScripts scripts, RedisKeys keys,
            SaleViewProperties saleView) {
        this.redis = redis;
        this.template = template;
        this.take = scripts.load("takeUnits-2.lua", List.class);
        this.credit = scripts.load("creditUnits-1.lua", Long.class);
        this.finish = scripts.load("finishTransfer-2.lua", Long.class);
        this.readBucket = scripts.load("readBucket-1.lua", List.class);
        this.keys = keys;
        this.saleViewChannel = saleView.channel();
    }

    /**
     * The buyer's home bucket is empty: moves units to it from the first of the other buckets that holds some (in
     * bucket order from the home one on), completing any transfer found under way on the way. EMPTY only when every
     * bucket was empty at one moment: each is read again after the others were found empty, and none may hold a
     * unit then nor have given one away in between (a transfer into a bucket already read, from one read later,
     * would otherwise hide a unit); if one did, the refill starts over. Completes on the Redis client's I/O thread.
     */
    public CompletableFuture<Refill> refill(long voucherId, int buckets, int homeBucket) {
        return pass(new Refilling(voucherId, buckets, homeBucket, new int[] {MAX_STEPS}));
    }

    /** One refill: {@code stepsLeft} bounds its round trips, however much the units move meanwhile. */
    private record Refilling(long voucherId, int buckets, int homeBucket, int[] stepsLeft) {

        boolean step() {
            return --stepsLeft[0] >= 0;
        }

        int shard(RedisKeys keys, int bucket) {
            return keys.bucketShard(voucherId, bucket);
        }
    }

    /** A bucket read by readBucket-1.lua. */
    private record BucketState(long stock, long transfersLeft, boolean underWay, boolean rebuilding) {}

    private CompletableFuture<Refill> pass(Refilling refilling) {
        long[] transfersLeft = new long[refilling.buckets()];
        return read(refilling, refilling.homeBucket()).thenCompose(home -> {
            if (home.stock() != 0 || home.underWay() || home.rebuilding()) {
                // Refilled meanwhile, under way, gone or being rebuilt: the admission says which.
                return CompletableFuture.completedFuture(Refill.MOVED);
            }
            transfersLeft[refilling.homeBucket()] = home.transfersLeft();
            return takeFrom(refilling, 1, transfersLeft);
        });
    }

    private CompletableFuture<BucketState> read(Refilling refilling, int bucket) {
        refilling.step();
        return redis.run(readBucket, List.of(keys.voucherOn(refilling.shard(keys, bucket), refilling.voucherId())))
                .thenApply(reply -> new BucketState((Long) reply.get(0), (Long) reply.get(1),
                        (Long) reply.get(2) == 1, (Long) reply.get(3) == 1));
    }

    private CompletableFuture<Refill> takeFrom(Refilling refilling, int step, long[] transfersLeft) {
        if (step >= refilling.buckets()) {
            return confirmEmpty(refilling, transfersLeft);
        }
        if (!refilling.step()) {
            return CompletableFuture.completedFuture(Refill.MOVED);
        }
        long voucherId = refilling.voucherId();
        int bucket = (refilling.homeBucket() + step) % refilling.buckets();
        int source = refilling.shard(keys, bucket);
        int destination = refilling.shard(keys, refilling.homeBucket());
        return redis.run(take, List.of(keys.voucherOn(source, voucherId), keys.transfersOn(source)),
                Integer.toString(destination), Long.toString(voucherId)).thenCompose(reply -> {
                    long code = (Long) reply.get(0);
                    if (code == TAKEN || code == UNDER_WAY) {
                        Transfer transfer = new Transfer(voucherId, source, (Long) reply.get(1),
                                ((Long) reply.get(2)).intValue(), (Long) reply.get(3), text(reply.get(4)));
                        return complete(transfer).thenCompose(completed -> completed != Refill.MOVED
                                || transfer.destination() == destination ? CompletableFuture.completedFuture(completed)
                                // Another buyer's transfer, completed: this bucket may hold more.
                                : takeFrom(refilling, step, transfersLeft));
                    }
                    if (code == EMPTY) {
                        transfersLeft[bucket] = (Long) reply.get(1);
                        return takeFrom(refilling, step + 1, transfersLeft);
                    }
                    if (code == REBUILDING || code == 1) {
                        return CompletableFuture.completedFuture(Refill.REBUILDING);
                    }
                    throw new IllegalStateException("takeUnits-2.lua answered " + reply);
                });
    }

    /**
     * Every bucket found empty once: EMPTY if each still is and none gave a unit away since it was read; the home
     * bucket holding a unit now: MOVED; else the units moved meanwhile, and the refill starts over.
     */
    private CompletableFuture<Refill> confirmEmpty(Refilling refilling, long[] transfersLeft) {
        CompletableFuture<Boolean> empty = CompletableFuture.completedFuture(true);
        for (int bucket = 0; bucket < refilling.buckets(); bucket++) {
            long before = transfersLeft[bucket];
            empty = empty.thenCombine(read(refilling, bucket), (others, state) -> others && state.stock() == 0
                    && !state.underWay() && !state.rebuilding() && state.transfersLeft() == before);
        }
        return empty.thenCompose(all -> all ? CompletableFuture.completedFuture(Refill.EMPTY)
                : refilling.stepsLeft()[0] > 0 ? pass(refilling) : CompletableFuture.completedFuture(Refill.MOVED));
    }

    /** Credits the destination, then clears the source's record: MOVED once both happened (now or before). */
    CompletableFuture<Refill> complete(Transfer transfer) {
        String voucherId = Long.toString(transfer.voucherId());
        String seq = Long.toString(transfer.seq());
        return redis.run(credit, List.of(keys.voucherOn(transfer.destination(), transfer.voucherId())),
                Integer.toString(transfer.source()), seq, Long.toString(transfer.units()), transfer.gen(), voucherId,
                saleViewChannel).thenCompose(code -> {
                    if (code != CREDITED && code != CREDITED_BEFORE) {
                        // Gone, being rebuilt, or voided by a rebuild that counts its units afresh.
                        return CompletableFuture.completedFuture(Refill.REBUILDING);
                    }
                    return redis.run(finish, List.of(keys.voucherOn(transfer.source(), transfer.voucherId()),
                            keys.transfersOn(transfer.source())), seq, transfer.gen(), voucherId)
                            .thenApply(finished -> Refill.MOVED);
                });
    }

    /**
     * Completes the transfers recorded more than a second ago on every shard: those whose taker crashed between the
     * steps, or lost Redis meanwhile (route {@code stock-transfers}).
     */
    public void completeStale() {
        try {
            completeStaleNow();
            if (failing) {
                log.info("Stock transfers are swept again");
                failing = false;
            }
        } catch (RuntimeException e) {
            // Redis down: the transfers stay recorded, each unit in its record, until the next sweep that works.
            if (!failing) {
                log.warn("Stock transfers not swept ({}); trying again every second", e.getMessage());
                failing = true;
            }
        }
    }

    private void completeStaleNow() {
        for (int shard = 0; shard < keys.shards(); shard++) {
            String transfers = keys.transfersOn(shard);
            // ZRANGEBYSCORE <transfers> 0 <now - 1 s>: the score is Redis's clock, the cut-off ours; a skew only
            // moves the moment a transfer counts as stale.
            Set<String> vouchers = template.opsForZSet().rangeByScore(transfers, 0,
                    System.currentTimeMillis() - STALE_AFTER_MILLIS);
            for (String voucher : vouchers == null ? Set.<String>of() : vouchers) {
                completeRecorded(shard, Long.parseLong(voucher));
            }
        }
    }

    private void completeRecorded(int source, long voucherId) {
        // HMGET <bucket> transferSeq transferTo transferUnits gen
        List<Object> record = template.opsForHash().multiGet(keys.voucherOn(source, voucherId),
                List.of("transferSeq", "transferTo", "transferUnits", "gen"));
        if (record.get(1) == null) {
            // Finished, or voided by a rebuild that rewrote the bucket: only the set's member was left.
            template.opsForZSet().remove(keys.transfersOn(source), Long.toString(voucherId));
            return;
        }
        Transfer transfer = new Transfer(voucherId, source, Long.parseLong(text(record.get(0))),
                Integer.parseInt(text(record.get(1))), Long.parseLong(text(record.get(2))),
                record.get(3) == null ? "0" : text(record.get(3)));
        Refill completed = complete(transfer).join();
        log.info("Transfer {} of voucher {} from shard {} to shard {} ({} units) left half-done: {}", transfer.seq(),
                voucherId, source, transfer.destination(), transfer.units(),
                completed == Refill.MOVED ? "completed" : "left to the rebuild under way");
    }

    private static String text(Object value) {
        return String.valueOf(value);
    }
}
