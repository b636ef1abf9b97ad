package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import io.seckill.redis.RedisKeys;
import io.seckill.support.SeckillIntegrationTest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * The transfer of units between a voucher's stock buckets (docs/buckets.md) on the real scripts and a real Redis, on
 * vouchers of the test's own that only Redis knows (the state check surveys the database's): a transfer moves half
 * the source's units once however often it is completed, one left half-done by a crashed taker is completed by the
 * sweep, one from before a rebuild is void, and a refill says EMPTY only when no bucket nor transfer holds a unit.
 */
@SeckillIntegrationTest
@DirtiesContext
@TestPropertySource(properties = "seckill.stream.shards=4")
class StockTransfersIntegrationTests {

    private static final int BUCKETS = 4;
    private static final Duration DEADLINE = Duration.ofSeconds(10);
    private static final AtomicLong VOUCHERS = new AtomicLong(910_000);

    @Autowired
    StockTransfers transfers;

    @Autowired
    RedisKeys keys;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    LuaScripts scripts;

    long voucher;

    @BeforeEach
    void newVoucher() {
        voucher = VOUCHERS.incrementAndGet();
    }

    @Test
    void aTransferMovesHalfTheSourcesUnitsOnceHoweverOftenItIsCompleted() {
        load(10, 0, 0, 0);

        // Home bucket 1: buckets 2 and 3 are empty, bucket 0 holds 10.
        assertThat(transfers.refill(voucher, BUCKETS, 1).join()).isEqualTo(StockTransfers.Refill.MOVED);

        assertThat(stocks()).containsExactly(5L, 5L, 0L, 0L);
        assertThat(field(0, "transferTo")).as("the record is cleared").isNull();
        assertThat(redis.opsForZSet().size(keys.transfersOn(shard(0)))).isZero();
        StockTransfers.Transfer again = new StockTransfers.Transfer(voucher, shard(0), 1, shard(1), 5, "0");
        assertThat(transfers.complete(again).join()).isEqualTo(StockTransfers.Refill.MOVED);
        assertThat(transfers.complete(again).join()).isEqualTo(StockTransfers.Refill.MOVED);
        assertThat(stocks()).as("credited once").containsExactly(5L, 5L, 0L, 0L);
    }

    @Test
    void aTransferLeftHalfDoneByItsTakerIsCompletedByTheSweep() {
        load(9, 0, 0, 0);
        // The taker's first step, then nothing: it crashed before crediting bucket 2.
        @SuppressWarnings({"rawtypes", "unchecked"})
        LuaScript<List> take = scripts.load("takeUnits-2.lua", List.class);
        List<Object> taken = (List<Object>) take.run(List.of(keys.voucherOn(shard(0), voucher),
                keys.transfersOn(shard(0))), Integer.toString(shard(2)), Long.toString(voucher));
        assertThat(taken).containsExactly(0L, 1L, (long) shard(2), 5L, "0");
        assertThat(stocks()).as("the 5 units are in the record").containsExactly(4L, 0L, 0L, 0L);

        await().atMost(DEADLINE).until(() -> stocks().equals(List.of(4L, 0L, 5L, 0L)));
        await().atMost(DEADLINE).until(() -> field(0, "transferTo") == null
                && redis.opsForZSet().size(keys.transfersOn(shard(0))) == 0);
    }

    @Test
    void aTransferTakenBeforeARebuildIsVoid() {
        load(6, 0, 0, 0);
        // A rebuild stamped every bucket with its token; this transfer was taken under the generation before.
        for (int bucket = 0; bucket < BUCKETS; bucket++) {
            redis.opsForHash().put(keys.voucherOn(shard(bucket), voucher), "gen", "instance@1");
        }

        StockTransfers.Transfer stale = new StockTransfers.Transfer(voucher, shard(0), 1, shard(1), 3, "0");
        assertThat(transfers.complete(stale).join()).isEqualTo(StockTransfers.Refill.REBUILDING);

        assertThat(stocks()).containsExactly(6L, 0L, 0L, 0L);
    }

    @Test
    void aRefillIsEmptyOnlyWhenNoBucketNorTransferHoldsAUnit() {
        load(0, 0, 0, 0);
        assertThat(transfers.refill(voucher, BUCKETS, 0).join()).isEqualTo(StockTransfers.Refill.EMPTY);

        // Bucket 3's last 3 units are on their way to bucket 1, which the refill of bucket 0 found empty before:
        // it completes the transfer, finds bucket 1 no longer empty on its second look, and takes from it.
        redis.opsForHash().putAll(keys.voucherOn(shard(3), voucher), java.util.Map.of("transferSeq", "1",
                "transferTo", Integer.toString(shard(1)), "transferUnits", "3"));
        assertThat(transfers.refill(voucher, BUCKETS, 0).join()).isEqualTo(StockTransfers.Refill.MOVED);
        assertThat(stocks()).containsExactly(2L, 1L, 0L, 0L);
        assertThat(field(3, "transferTo")).isNull();
    }

    private void load(long... stocks) {
        for (int bucket = 0; bucket < BUCKETS; bucket++) {
            redis.opsForHash().putAll(keys.voucherOn(shard(bucket), voucher), java.util.Map.of("stock",
                    Long.toString(stocks[bucket]), "beginAt", "0", "buckets", Integer.toString(BUCKETS)));
        }
        assertThat(IntStream.range(0, BUCKETS).map(this::shard).distinct()).as("a shard per bucket").hasSize(BUCKETS);
    }

    private List<Long> stocks() {
        return IntStream.range(0, BUCKETS).mapToObj(bucket -> Long.parseLong(field(bucket, "stock"))).toList();
    }

    private String field(int bucket, String field) {
        Object value = redis.opsForHash().get(keys.voucherOn(shard(bucket), voucher), field);
        return value == null ? null : value.toString();
    }

    private int shard(int bucket) {
        return keys.bucketShard(voucher, bucket);
    }
}
