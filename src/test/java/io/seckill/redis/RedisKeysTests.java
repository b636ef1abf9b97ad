package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Where a voucher's stock buckets and a buyer's home bucket are (docs/buckets.md). */
class RedisKeysTests {

    private final RedisKeys keys = new RedisKeys(new StreamProperties(4, "order-writers", "instance-1", 500, 1000,
            1));

    @Test
    void aVoucherOfOneBucketKeepsItsKeysOnItsOwnShard() {
        assertThat(RedisKeys.homeBucket(123_456_789L, 1)).isZero();
        assertThat(keys.homeShard(6, 42, 1)).isEqualTo(keys.shardOf(6));
        assertThat(keys.voucherOn(keys.bucketShard(6, 0), 6)).isEqualTo(keys.voucher(6)).isEqualTo(
                "seckill:{s2}:voucher:6");
    }

    @Test
    void eachBucketIsOnAShardOfItsOwnFromTheVouchersOn() {
        assertThat(IntStream.range(0, 4).map(bucket -> keys.bucketShard(6, bucket))).containsExactly(2, 3, 0, 1);
        assertThat(keys.shardOfStream(keys.dueOrdersOf(keys.ordersOn(3)))).isEqualTo(3);
    }

    @Test
    void buyersSpreadEvenlyOverTheBucketsWhateverPatternTheirIdsShare() {
        for (long step : new long[] {1, 4, 1_000}) {
            long[] perBucket = new long[4];
            LongStream.iterate(step, id -> id + step).limit(40_000)
                    .forEach(id -> perBucket[RedisKeys.homeBucket(id, 4)]++);
            assertThat(LongStream.of(perBucket).min().orElseThrow()).as("ids every %d", step).isGreaterThan(9_500);
            assertThat(LongStream.of(perBucket).max().orElseThrow()).as("ids every %d", step).isLessThan(10_500);
        }
        assertThat(RedisKeys.homeBucket(-7, 3)).as("any id, even one Redis never sees").isBetween(0, 2);
    }
}
