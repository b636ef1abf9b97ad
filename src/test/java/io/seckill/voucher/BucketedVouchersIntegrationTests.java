package io.seckill.voucher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient;
import io.seckill.support.Prometheus;
import io.seckill.support.Stores;
import io.seckill.support.SeckillIntegrationTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * Vouchers whose stock is split into buckets on several shards (docs/buckets.md), over HTTP: created and shown with
 * their buckets, sold out completely by a crowd whose buyers all belong to one bucket (units move to it), and
 * rebuilt when Redis forgets one bucket without the others being over-credited.
 */
@SeckillIntegrationTest
@DirtiesContext
@TestPropertySource(properties = {"seckill.stream.shards=4", "seckill.redis.state-check.check-period=1s",
        "seckill.metrics.voucher-stock-period=1s"})
class BucketedVouchersIntegrationTests {

    private static final int BUCKETS = 4;
    private static final Duration DEADLINE = Duration.ofSeconds(30);

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    RedisKeys keys;

    @Test
    void aVoucherOfFourBucketsIsCreatedAndShownWithEachBucketsUnits() {
        ApiClient.Answer created = api.createVoucher("{\"title\":\"Hot item\",\"stock\":10,\"buckets\":4}");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().get("buckets").asInt()).isEqualTo(BUCKETS);
        long voucher = created.json().get("id").asLong();
        ApiClient.Answer shown = api.get("/api/vouchers/" + voucher);
        assertThat(shown.json().get("remaining").asLong()).isEqualTo(10);
        assertThat(shown.json().get("remainingByBucket").toString()).isEqualTo("[3,3,2,2]");
        assertThat(IntStream.range(0, BUCKETS).map(bucket -> keys.bucketShard(voucher, bucket)).distinct())
                .as("each bucket on a shard of its own").hasSize(BUCKETS);
    }

    @Test
    void theMetricsShowEachBucketsUnitsAndTheVouchersTotal() {
        long voucher = createVoucher(10);
        long buyerOfBucketOne = LongStream.iterate(1, id -> id + 1).filter(id -> RedisKeys.homeBucket(id, BUCKETS) == 1)
                .findFirst().orElseThrow();

        api.orderAccepted(voucher, buyerOfBucketOne);

        await().atMost(DEADLINE).untilAsserted(() -> {
            Prometheus scrape = api.prometheus();
            assertThat(IntStream.range(0, BUCKETS).mapToDouble(bucket -> scrape.sum(
                    "seckill_voucher_bucket_remaining", "bucket=\"" + bucket + "\",voucher=\"" + voucher + "\""))
                    .boxed()).containsExactly(3.0, 2.0, 2.0, 2.0);
            assertThat(scrape.sum("seckill_voucher_remaining", "voucher=\"" + voucher + "\"")).isEqualTo(9.0);
        });
    }

    @Test
    void moreBucketsThanShardsIsABadRequestThatCreatesNothing() {
        long before = stores.jdbc().queryForObject("SELECT COUNT(*) FROM vouchers", Long.class);

        ApiClient.Answer refused = api.createVoucher("{\"title\":\"Too hot\",\"stock\":10,\"buckets\":5}");

        assertThat(refused.status()).isEqualTo(400);
        assertThat(refused.code()).isEqualTo("BAD_REQUEST");
        assertThat(refused.json().get("detail").asText()).contains("buckets must be between 1 and 4");
        assertThat(stores.jdbc().queryForObject("SELECT COUNT(*) FROM vouchers", Long.class)).isEqualTo(before);
    }

    @Test
    void aCrowdWhoseBuyersAllBelongToOneBucketBuysEveryUnitOnce() throws Exception {
        long voucher = createVoucher(40);
        List<Long> buyers = LongStream.iterate(1_000, id -> id + 1)
                .filter(id -> RedisKeys.homeBucket(id, BUCKETS) == 0).limit(80).boxed().toList();

        Map<Integer, List<Long>> byStatus = orderAtOnce(voucher, buyers);

        assertThat(byStatus.get(202)).as("every unit sold: %s", byStatus).hasSize(40);
        assertThat(byStatus.get(409)).hasSize(40);
        assertThat(byStatus.keySet()).containsOnly(202, 409);
        await().atMost(DEADLINE).until(() -> stores.orderRows(voucher) == 40);
        assertThat(stores.distinctBuyers(voucher)).isEqualTo(40);
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isZero();
        assertThat(api.order(voucher, buyers.get(0) + 1_000_000).code()).isEqualTo("SOLD_OUT");
        long winner = byStatus.get(202).get(0);
        assertThat(api.order(voucher, winner).code()).as("a winner clicking again").isEqualTo("ALREADY_ORDERED");
    }

    @Test
    void redisForgettingOneBucketRebuildsItWithoutOverCreditingTheOthers() throws Exception {
        long voucher = createVoucher(20);
        List<Long> early = LongStream.rangeClosed(1, 6).boxed().toList();
        early.forEach(buyer -> api.orderAccepted(voucher, buyer));
        await().atMost(DEADLINE).until(() -> stores.orderRows(voucher) == 6);

        // DEL of one bucket's hash and buyers, as an eviction or a lost master would.
        int forgotten = keys.bucketShard(voucher, 2);
        redis.delete(List.of(keys.voucherOn(forgotten, voucher), keys.buyersOn(forgotten, voucher)));
        await().atMost(DEADLINE).until(() -> api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()
                == 14 && redis.hasKey(keys.voucherOn(forgotten, voucher))
                && !redis.opsForHash().hasKey(keys.voucherOn(forgotten, voucher), "rebuilding"));

        assertThat(early).allSatisfy(buyer -> assertThat(api.order(voucher, buyer).code())
                .as("buyer %d, bucket %d", buyer, RedisKeys.homeBucket(buyer, BUCKETS)).isEqualTo("ALREADY_ORDERED"));
        Map<Integer, List<Long>> byStatus = orderAtOnce(voucher, LongStream.rangeClosed(101, 130).boxed().toList());
        assertThat(byStatus.get(202)).as("exactly the 14 units left: %s", byStatus).hasSize(14);
        await().atMost(DEADLINE).until(() -> stores.orderRows(voucher) == 20);
        assertThat(stores.distinctBuyers(voucher)).isEqualTo(20);
    }

    private long createVoucher(int stock) {
        ApiClient.Answer created = api.createVoucher("{\"title\":\"Hot item\",\"stock\":" + stock + ",\"buckets\":"
                + BUCKETS + "}");
        assertThat(created.status()).isEqualTo(201);
        return created.json().get("id").asLong();
    }

    /** Every buyer orders once, 16 at a time: the buyers by the status they were answered. */
    private Map<Integer, List<Long>> orderAtOnce(long voucher, List<Long> buyers) throws Exception {
        ExecutorService crowd = Executors.newFixedThreadPool(16);
        try {
            List<Future<Integer>> answers = new ArrayList<>();
            for (long buyer : buyers) {
                answers.add(crowd.submit(() -> api.order(voucher, buyer).status()));
            }
            Map<Long, Integer> statusOf = new java.util.LinkedHashMap<>();
            for (int i = 0; i < buyers.size(); i++) {
                statusOf.put(buyers.get(i), answers.get(i).get());
            }
            return statusOf.keySet().stream().collect(Collectors.groupingBy(statusOf::get, Collectors.toList()));
        } finally {
            crowd.shutdownNow();
        }
    }
}
