package io.seckill.expiry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * Orders of a voucher in several stock buckets (docs/buckets.md) after their 202, with a payment window of 2 s: a
 * paid order leaves its bucket's due orders at once; an unpaid one is cancelled and its unit goes back to its
 * buyer's home bucket, where another buyer of that bucket buys it.
 */
@SeckillIntegrationTest
@DirtiesContext
@TestPropertySource(properties = {
    "seckill.stream.shards=4",
    "seckill.order.payment-timeout=2s",
    "seckill.order.expiry.period-millis=200",
    "seckill.order.expiry.not-written-delay=500ms"
})
class BucketedVoucherExpiryIntegrationTests {

    private static final int BUCKETS = 4;
    private static final Duration SETTLED = Duration.ofSeconds(30);

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    RedisKeys keys;

    @Test
    void anUnpaidOrdersUnitGoesBackToItsBuyersHomeBucketAndAPaidOneLeavesItsDueOrders() {
        ApiClient.Answer created = api.createVoucher("{\"title\":\"Hot\",\"stock\":4,\"buckets\":4}");
        long voucher = created.json().get("id").asLong();
        long payer = buyerOf(voucher, 1, 1);
        long unpaid = buyerOf(voucher, 2, 1);
        String paidOrder = api.orderAccepted(voucher, payer).get(0);
        api.orderAccepted(voucher, unpaid);
        int payerShard = keys.bucketShard(voucher, 1);
        int unpaidShard = keys.bucketShard(voucher, 2);
        assertThat(stock(voucher, payerShard)).isZero();
        assertThat(stock(voucher, unpaidShard)).isZero();

        await().atMost(SETTLED).until(() -> api.pay(paidOrder, payer).status() == 200);
        assertThat(redis.opsForZSet().score(keys.dueOrdersOf(keys.ordersOn(payerShard)),
                RedisKeys.unpaidOrder(Long.parseLong(paidOrder), payer))).as("no longer due").isNull();

        await().atMost(SETTLED).until(() -> stock(voucher, unpaidShard) == 1);
        assertThat(redis.opsForSet().isMember(keys.buyersOn(unpaidShard, voucher), Long.toString(unpaid))).isFalse();
        assertThat(stock(voucher, payerShard)).as("the paid unit stays sold").isZero();
        long next = buyerOf(voucher, 2, 2);
        assertThat(api.order(voucher, next).status()).isEqualTo(202);
        assertThat(stock(voucher, unpaidShard)).as("sold again from the same bucket").isZero();
        await().atMost(SETTLED).until(() -> stores.orderRows(voucher) == 3);
    }

    /** The n-th buyer id from 1 on whose home bucket is this one. */
    private static long buyerOf(long voucher, int bucket, int nth) {
        long id = 0;
        for (int found = 0; found < nth; ) {
            id++;
            if (RedisKeys.homeBucket(id, BUCKETS) == bucket) {
                found++;
            }
        }
        return id;
    }

    private long stock(long voucher, int shard) {
        return Long.parseLong(String.valueOf(redis.opsForHash().get(keys.voucherOn(shard, voucher), "stock")));
    }
}
