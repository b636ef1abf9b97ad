package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient;
import io.seckill.support.ServiceDatabase;
import io.seckill.support.ServiceProcess;
import io.seckill.support.StandaloneRedis;
import io.seckill.support.SuspendedAt;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * A crash between the two steps of a stock transfer (docs/buckets.md) loses no unit and creates none. The service
 * runs as a child JVM with a debugger's agent; a breakpoint where the units have left their source bucket and are
 * about to be credited to the buyer's empty home bucket ({@link StockTransfers#complete}) freezes every thread of
 * it, and it is SIGKILLed there: the units exist only in the source's transfer record. After a restart the
 * sweeper (route {@code stock-transfers}) credits them, units in Redis plus units sold equal the stock, and a
 * crowd buys exactly what is left.
 */
class StockTransferCrashIntegrationTests {

    private static final int SHARDS = 4;
    private static final int STOCK = 40;
    private static final Duration START = Duration.ofSeconds(180);
    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final Path ROOT = Path.of("target", "stock-transfer-crash", UUID.randomUUID().toString());

    static StandaloneRedis redis;
    final List<ServiceProcess> instances = new ArrayList<>();

    @BeforeAll
    static void startRedis() {
        redis = StandaloneRedis.start(ROOT.resolve("redis"));
    }

    @AfterAll
    static void stopRedis() throws Exception {
        redis.close();
    }

    @AfterEach
    void killLeftovers() {
        instances.forEach(ServiceProcess::close);
    }

    @Test
    void aServiceKilledBetweenTakingUnitsAndCreditingThemLosesNoneOnceRestarted() throws Exception {
        Path workDir = ROOT.resolve("service");
        int debugPort = ServiceProcess.freePort();
        List<String> debuggable = new ArrayList<>(ServiceProcess.DEFAULT_JVM_OPTIONS);
        debuggable.add("-agentlib:jdwp=transport=dt_socket,server=y,suspend=n,address=127.0.0.1:" + debugPort);
        ServiceProcess first = start("transfer-crash-1", workDir, debuggable);
        ApiClient.Answer created = first.api().createVoucher("{\"title\":\"Hot item\",\"stock\":" + STOCK
                + ",\"buckets\":" + SHARDS + "}");
        assertThat(created.status()).isEqualTo(201);
        long voucher = created.json().get("id").asLong();
        Buckets buckets = new Buckets(redis.template(), voucher);
        List<Long> homeZero = LongStream.iterate(1_000, id -> id + 1)
                .filter(id -> RedisKeys.homeBucket(id, SHARDS) == 0).limit(STOCK + 20).boxed().toList();

        // Bucket 0's own ten units, sold to buyers of bucket 0.
        homeZero.subList(0, 10).forEach(buyer -> first.api().orderAccepted(voucher, buyer));
        assertThat(buckets.stocks()).containsExactly(0L, 10L, 10L, 10L);

        // The next buyer of bucket 0 finds it empty: units are taken from bucket 1, and the service freezes and dies
        // before they are credited.
        long interrupted = homeZero.get(10);
        try (SuspendedAt breakpoint = SuspendedAt.method(debugPort, StockTransfers.class.getName(), "complete")) {
            CompletableFuture<?> order = CompletableFuture.runAsync(() -> first.api().order(voucher, interrupted));
            breakpoint.awaitHit(DEADLINE);
            assertThat(buckets.field(1, "transferTo")).as("bucket 1's transfer record")
                    .isEqualTo(Integer.toString(buckets.shard(0)));
            long inTransfer = Long.parseLong(buckets.field(1, "transferUnits"));
            assertThat(inTransfer).isEqualTo(5);
            assertThat(buckets.stocks()).as("units left in buckets while 5 are in transfer")
                    .containsExactly(0L, 5L, 10L, 10L);
            first.kill();
            order.handle((done, failed) -> null).join();
        }
        assertThat(redis.template().opsForSet().isMember(buckets.buyersOf(0), Long.toString(interrupted)))
                .as("the interrupted buyer got no order").isFalse();

        // Restarted: the transfer left half-done is completed.
        ServiceProcess second = start("transfer-crash-2", workDir, ServiceProcess.DEFAULT_JVM_OPTIONS);
        JdbcTemplate db = ServiceDatabase.open(databaseUrl(workDir));
        await().atMost(DEADLINE).until(() -> buckets.field(1, "transferTo") == null && orderRows(db, voucher) == 10);
        assertThat(buckets.stocks().stream().mapToLong(Long::longValue).sum() + orderRows(db, voucher))
                .as("units in Redis + units sold").isEqualTo(STOCK);
        assertThat(buckets.stocks()).as("the 5 units credited to bucket 0").containsExactly(5L, 5L, 10L, 10L);
        assertThat(Files.readString(second.log())).contains("Transfer 1 of voucher " + voucher + " from shard "
                + buckets.shard(1) + " to shard " + buckets.shard(0) + " (5 units) left half-done: completed");

        // The rest sells out exactly: the interrupted buyer again first, then a crowd of bucket 0.
        second.api().orderAccepted(voucher, interrupted);
        long accepted = 1 + homeZero.subList(11, homeZero.size()).stream()
                .filter(buyer -> second.api().order(voucher, buyer).status() == 202).count();
        assertThat(accepted).isEqualTo(STOCK - 10);
        await().atMost(DEADLINE).until(() -> orderRows(db, voucher) == STOCK);
        assertThat(db.queryForObject("SELECT COUNT(DISTINCT user_id) FROM orders WHERE voucher_id = ?", Long.class,
                voucher)).isEqualTo(STOCK);
        assertThat(buckets.stocks()).containsExactly(0L, 0L, 0L, 0L);
    }

    private ServiceProcess start(String name, Path workDir, List<String> jvmOptions) {
        Map<String, String> properties = new HashMap<>(redis.serviceProperties());
        properties.put("seckill.stream.shards", Integer.toString(SHARDS));
        properties.put("spring.datasource.url", databaseUrl(workDir));
        ServiceProcess instance = ServiceProcess.start(name, workDir, properties, jvmOptions);
        instances.add(instance);
        return instance.awaitHealthy(START);
    }

    /** The service's H2 file, served by the service to the test meanwhile (AUTO_SERVER). */
    private static String databaseUrl(Path workDir) {
        return "jdbc:h2:file:" + workDir.toAbsolutePath().resolve("data/db/seckill") + ";WRITE_DELAY=0;AUTO_SERVER=TRUE";
    }

    private static long orderRows(JdbcTemplate db, long voucher) {
        return db.queryForObject("SELECT COUNT(*) FROM orders WHERE voucher_id = ?", Long.class, voucher);
    }

    /** A voucher's buckets as Redis holds them: bucket k on shard (voucher + k) mod shards (RedisKeys). */
    private record Buckets(StringRedisTemplate redis, long voucher) {

        int shard(int bucket) {
            return (int) ((voucher + bucket) % SHARDS);
        }

        String field(int bucket, String field) {
            Object value = redis.opsForHash().get("seckill:{s" + shard(bucket) + "}:voucher:" + voucher, field);
            return value == null ? null : value.toString();
        }

        String buyersOf(int bucket) {
            return "seckill:{s" + shard(bucket) + "}:buyers:" + voucher;
        }

        List<Long> stocks() {
            return IntStream.range(0, SHARDS).mapToObj(bucket -> Long.parseLong(field(bucket, "stock"))).toList();
        }
    }
}
