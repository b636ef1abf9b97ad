package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * Six shards, so twelve readers (readers-per-shard 2), each holding a connection of its own for its blocking
 * XREADGROUP: more than the eight a Lettuce connection pool holds by default. With that pool the ninth reader on
 * waited for a connection forever (their shards' orders were never written), and so did the state check's pipeline.
 */
@SeckillIntegrationTest
@DirtiesContext
@TestPropertySource(properties = {"seckill.stream.shards=" + ManyShardReadersIntegrationTests.SHARDS,
    "seckill.redis.state-check.check-period=1s"})
class ManyShardReadersIntegrationTests {

    static final int SHARDS = 6;
    private static final Duration DEADLINE = Duration.ofSeconds(20);

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    RedisKeys keys;

    @Test
    void everyShardIsReadAndTheStateCheckStillRuns() {
        List<Long> vouchers = new ArrayList<>();
        for (int i = 0; i < SHARDS; i++) {
            vouchers.add(api.createVoucher(5));
        }
        assertThat(vouchers.stream().map(keys::shardOf).distinct()).hasSize(SHARDS);
        vouchers.forEach(voucher -> api.orderAccepted(voucher, 7));

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(vouchers)
                .allSatisfy(voucher -> assertThat(stores.orderRows(voucher)).as("rows of voucher %d", voucher)
                        .isEqualTo(1)));

        // DEL of a voucher's hash, as an eviction would: the next check finds it gone (HMGET, pipelined) and rebuilds
        long forgotten = vouchers.get(SHARDS - 1);
        redis.delete(keys.voucher(forgotten));
        await().atMost(DEADLINE).until(() -> "4".equals(redis.opsForHash().get(keys.voucher(forgotten), "stock")));
    }
}
