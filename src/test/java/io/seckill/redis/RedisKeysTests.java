package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/** Where a voucher's stock buckets and a buyer's home bucket are (docs/buckets.md), and each warm-up's keys. */
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

    @Test
    void eachInstanceWarmsUpOnKeysOfItsOwnUnderTheSameHashTags() {
        RedisKeys other = new RedisKeys(new StreamProperties(4, "order-writers", "instance-2", 500, 1000, 1));
        RedisKeys braces = new RedisKeys(new StreamProperties(4, "order-writers", "host{s1}-8080", 500, 1000, 1));

        assertThat(keys.warmUp().voucher(6)).matches("seckill:warm-up:[0-9a-f]{8}:\\{s2}:voucher:6")
                .isNotEqualTo(other.warmUp().voucher(6));
        assertThat(keys.warmUp().instance()).isEqualTo(keys.instance());
        // The name's own characters never reach the key: the first {...} of a key is its hash tag on a cluster.
        assertThat(braces.warmUp().ordersOn(3)).matches("seckill:warm-up:[0-9a-f]{8}:\\{s3}:orders");
        assertThat(keys.warmUp().named("events")).isEqualTo("seckill:warm-up:" + keys.instance() + ":events");
        // A restart keeps its name, so it finds what a warm-up it killed left.
        assertThat(new RedisKeys(new StreamProperties(1, "g", "instance-1", 1, 1, 1)).instance())
                .isEqualTo(keys.instance());
    }
}
