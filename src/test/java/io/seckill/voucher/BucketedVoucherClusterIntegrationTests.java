package io.seckill.voucher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient;
import io.seckill.support.EmbeddedRedisCluster;
import io.seckill.support.ServiceDatabase;
import io.seckill.support.ServiceProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A voucher of four stock buckets sold by two instances on a three-master Redis Cluster (real processes), its
 * buckets' shards on different masters: a crowd spread over both instances buys exactly the stock, most of it from
 * buyers of one bucket (units move between masters); the unpaid orders expire, each unit back to the bucket its
 * order was taken from, and a second crowd buys exactly those again. Rows = units sold, sold ≤ stock, no buyer twice.
 */
class BucketedVoucherClusterIntegrationTests {

    private static final int SHARDS = 4;
    private static final int STOCK = 60;
    private static final Duration START = Duration.ofSeconds(180);
    private static final Duration DEADLINE = Duration.ofSeconds(90);
    private static final Path ROOT = Path.of("target", "bucketed-cluster", UUID.randomUUID().toString());

    static EmbeddedRedisCluster cluster;
    final List<ServiceProcess> instances = new ArrayList<>();

    @BeforeAll
    static void startCluster() {
        cluster = EmbeddedRedisCluster.start();
    }

    @AfterAll
    static void stopCluster() throws Exception {
        cluster.close();
    }

    @AfterEach
    void stopInstances() {
        instances.forEach(ServiceProcess::close);
    }

    @Test
    void twoInstancesSellEveryUnitOnceAndSellTheUnpaidAgainFromTheirBuckets() throws Exception {
        Path workDir = ROOT.resolve("service");
        String url = "jdbc:h2:file:" + workDir.toAbsolutePath().resolve("data/db/seckill")
                + ";WRITE_DELAY=0;AUTO_SERVER=TRUE";
        ServiceProcess x = start("bucketed-x", workDir, url);
        ServiceProcess y = start("bucketed-y", workDir, url);
        x.awaitHealthy(START);
        y.awaitHealthy(START);
        ApiClient.Answer created = x.api().createVoucher("{\"title\":\"Hot item\",\"stock\":" + STOCK
                + ",\"buckets\":" + SHARDS + "}");
        assertThat(created.status()).isEqualTo(201);
        long voucher = created.json().get("id").asLong();
        assertThat(IntStream.range(0, SHARDS).map(bucket -> cluster.masterOf(
                "seckill:{s" + (voucher + bucket) % SHARDS + "}:voucher:" + voucher)).distinct().count())
                .as("masters holding the voucher's buckets").isEqualTo(3);

        // Three in four buyers of bucket 0, the rest any: every bucket's units go, most of them through transfers.
        List<Long> firstCrowd = LongStream.iterate(1, id -> id + 1)
                .filter(id -> RedisKeys.homeBucket(id, SHARDS) == 0 || id % 4 == 0).limit(2L * STOCK).boxed().toList();
        Map<Long, String> accepted = orderAtOnce(List.of(x, y), voucher, firstCrowd);
        assertThat(accepted).hasSize(STOCK);

        // Every other winner pays; the others' orders expire, each unit back to its bucket.
        List<Long> winners = List.copyOf(accepted.keySet());
        Set<Long> unpaid = ConcurrentHashMap.newKeySet();
        JdbcTemplate db = ServiceDatabase.open(url);
        await().atMost(DEADLINE).until(() -> rows(db, voucher, "CREATED") == STOCK);
        for (int i = 0; i < winners.size(); i++) {
            long buyer = winners.get(i);
            if (i % 2 == 0) {
                assertThat((i % 4 == 0 ? x : y).api().pay(accepted.get(buyer), buyer).status()).isEqualTo(200);
            } else {
                unpaid.add(buyer);
            }
        }
        await().atMost(DEADLINE).until(() -> rows(db, voucher, "CANCELLED") == unpaid.size());
        Map<Integer, Long> unpaidByBucket = unpaid.stream()
                .collect(Collectors.groupingBy(buyer -> RedisKeys.homeBucket(buyer, SHARDS), Collectors.counting()));
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(remainingByBucket(x, voucher))
                .as("the units of the unpaid orders, each back in its buyer's bucket")
                .isEqualTo(IntStream.range(0, SHARDS).mapToObj(bucket -> unpaidByBucket.getOrDefault(bucket, 0L))
                        .toList()));

        // A second crowd buys exactly those units again.
        List<Long> secondCrowd = LongStream.rangeClosed(1_000_001, 1_000_000 + 2L * unpaid.size()).boxed().toList();
        assertThat(orderAtOnce(List.of(y, x), voucher, secondCrowd)).hasSize(unpaid.size());
        await().atMost(DEADLINE).until(() -> rows(db, voucher, "CREATED") + rows(db, voucher, "PAID") == STOCK);
        assertThat(db.queryForObject("SELECT sold FROM vouchers WHERE id = ?", Long.class, voucher)).isEqualTo(STOCK);
        assertThat(db.queryForObject("SELECT COUNT(DISTINCT user_id) FROM orders WHERE voucher_id = ? AND status <> "
                + "'CANCELLED'", Long.class, voucher)).isEqualTo(STOCK);
        assertThat(remainingByBucket(y, voucher)).containsExactly(0L, 0L, 0L, 0L);
    }

    private ServiceProcess start(String name, Path workDir, String url) {
        Map<String, String> properties = new HashMap<>();
        properties.put("seckill.redis.embedded", "false");
        properties.put("spring.data.redis.cluster.nodes", cluster.nodes());
        properties.put("seckill.stream.shards", Integer.toString(SHARDS));
        properties.put("spring.datasource.url", url);
        properties.put("seckill.stream.consumer-name", name);
        properties.put("seckill.order.payment-timeout", "15s");
        properties.put("seckill.rate-limit.per-address.rate", "0");
        ServiceProcess instance = ServiceProcess.start(name, workDir, properties);
        instances.add(instance);
        return instance;
    }

    /** Every buyer orders once, 16 at a time, through the instances in turn: the winners and their order ids. */
    private static Map<Long, String> orderAtOnce(List<ServiceProcess> through, long voucher, List<Long> buyers)
            throws Exception {
        ExecutorService crowd = Executors.newFixedThreadPool(16);
        try {
            List<Future<ApiClient.Answer>> answers = new ArrayList<>();
            for (int i = 0; i < buyers.size(); i++) {
                ApiClient api = through.get(i % through.size()).api();
                long buyer = buyers.get(i);
                answers.add(crowd.submit(() -> api.order(voucher, buyer)));
            }
            Map<Long, String> winners = new HashMap<>();
            for (int i = 0; i < buyers.size(); i++) {
                ApiClient.Answer answer = answers.get(i).get();
                assertThat(answer.status()).as("buyer %d: %s", buyers.get(i), answer.body()).isIn(202, 409);
                if (answer.status() == 202) {
                    winners.put(buyers.get(i), answer.json().get("orderId").asText());
                } else {
                    assertThat(answer.code()).isEqualTo("SOLD_OUT");
                }
            }
            return winners;
        } finally {
            crowd.shutdownNow();
        }
    }

    private static List<Long> remainingByBucket(ServiceProcess instance, long voucher) {
        List<Long> byBucket = new ArrayList<>();
        instance.api().get("/api/vouchers/" + voucher).json().get("remainingByBucket")
                .forEach(units -> byBucket.add(units.asLong()));
        return byBucket;
    }

    private static long rows(JdbcTemplate db, long voucher, String status) {
        return db.queryForObject("SELECT COUNT(*) FROM orders WHERE voucher_id = ? AND status = ?", Long.class,
                voucher, status);
    }
}
