package io.seckill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.DirectAdmission;
import io.seckill.support.OrderStreams;
import io.seckill.support.ServiceDatabase;
import io.seckill.support.ServiceProcess;
import io.seckill.support.StandaloneRedis;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * SIGKILL at any moment loses no accepted order and writes none twice. Service instances run as child JVMs on a
 * Redis the test owns and one H2 file; each is killed while it drains a backlog of thousands of accepted orders,
 * at three different moments, and a last instance finishes. Then every accepted order is in the database exactly
 * once and the contract's invariant holds.
 */
class CrashRecoveryIntegrationTests {

    private static final int ROUND = 6000;
    private static final Duration START = Duration.ofSeconds(180);
    private static final Path ROOT = Path.of("target", "crash-recovery", UUID.randomUUID().toString());

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
    void everyAcceptedOrderIsWrittenOnceThoughInstancesAreKilledWhileDraining() {
        Path workDir = ROOT.resolve("service");
        OrderStreams streams = new OrderStreams(redis.template());
        DirectAdmission admission = new DirectAdmission(redis.template());
        List<Long> accepted = new ArrayList<>();
        long firstOrderId = 1L << 50;

        ServiceProcess first = start("crash-1", workDir, "writer-a");
        long voucher = first.api().createVoucher(3 * ROUND);

        // 1. The first instance, a few batches into a backlog.
        accepted.addAll(admission.admit(voucher, firstOrderId, 1, ROUND));
        killAt(first, streams, () -> streams.length() <= ROUND - 500);

        // 2. Restarted under the same consumer name it re-reads what it held (XREADGROUP … 0); killed halfway, with
        // a batch in hand: between acknowledging one batch and reading the next it holds nothing, and a kill there
        // would leave step 3 nothing to take over.
        accepted.addAll(admission.admit(voucher, firstOrderId + ROUND, 1 + ROUND, ROUND));
        long backlog = streams.length();
        killAt(start("crash-2", workDir, "writer-a"), streams,
                () -> streams.length() <= backlog / 2 && heldBy("writer-a") > 0);

        // 3. A new consumer must take over writer-a's entries (XAUTOCLAIM): killed as soon as it has claimed some.
        long heldByA = heldBy("writer-a");
        assertThat(heldByA).as("entries the killed writer-a held").isPositive();
        accepted.addAll(admission.admit(voucher, firstOrderId + 2 * ROUND, 1 + 2 * ROUND, ROUND));
        killAt(start("crash-3", workDir, "writer-c"), streams, () -> heldBy("writer-a") < heldByA);

        // A last instance sweeps what writer-a and writer-c held and reads the rest.
        ServiceProcess last = start("crash-4", workDir, "writer-d");
        await().atMost(Duration.ofSeconds(180)).until(streams::quiet);
        assertThat(last.stop(Duration.ofSeconds(60))).isTrue();

        JdbcTemplate db = ServiceDatabase.open(ServiceDatabase.defaultUrl(workDir));
        List<Long> written = db.queryForList("SELECT order_id FROM orders WHERE voucher_id = ?", Long.class, voucher);
        assertThat(accepted).hasSize(3 * ROUND);
        assertThat(written).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(accepted);
        assertThat(db.queryForObject("SELECT COUNT(DISTINCT user_id) FROM orders WHERE voucher_id = ?", Long.class,
                voucher)).isEqualTo(written.size());
        assertThat(streams.deadLetterCount()).isZero();
        // rows + pending or unread + dead letters = stock at creation − remaining
        long remaining = Long.parseLong((String) redis.template().opsForHash()
                .get("seckill:{s0}:voucher:" + voucher, "stock"));
        assertThat(written.size() + streams.length() + streams.deadLetterCount()).isEqualTo(3L * ROUND - remaining);
    }

    private ServiceProcess start(String name, Path workDir, String consumerName) {
        Map<String, String> properties = new HashMap<>(redis.serviceProperties());
        properties.put("seckill.stream.consumer-name", consumerName);
        // Small batches and short sweeper timers: a drain lasts long enough to be interrupted, recovery is quick.
        properties.put("seckill.stream.batch-size", "100");
        properties.put("seckill.stream.block-millis", "200");
        properties.put("seckill.sweeper.period-millis", "500");
        properties.put("seckill.sweeper.min-idle-millis", "1500");
        ServiceProcess instance = ServiceProcess.start(name, workDir, properties);
        instances.add(instance);
        return instance.awaitHealthy(START);
    }

    /** SIGKILLs the instance at a moment the condition holds; asserts orders were left. */
    private static void killAt(ServiceProcess instance, OrderStreams streams, BooleanSupplier moment) {
        instance.killAt(Duration.ofSeconds(120), moment);
        assertThat(streams.length()).as("orders left unwritten when %s was killed", instance.name()).isPositive();
    }

    /** XPENDING summary: entries this consumer was given and has not acknowledged. */
    private static long heldBy(String consumer) {
        return redis.template().opsForStream().pending(OrderStreams.ORDERS, OrderStreams.GROUP)
                .getPendingMessagesPerConsumer().getOrDefault(consumer, 0L);
    }
}
