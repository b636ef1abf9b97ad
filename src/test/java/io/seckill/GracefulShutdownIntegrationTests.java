package io.seckill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.DirectAdmission;
import io.seckill.support.OrderStreams;
import io.seckill.support.RedisPort;
import io.seckill.support.ServiceDatabase;
import io.seckill.support.ServiceProcess;
import io.seckill.support.StandaloneRedis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.domain.Range;

/**
 * SIGTERM while draining, in the default set-up (embedded Redis, H2 file): the instance stops reading, finishes
 * and acknowledges the batch in hand, and exits within its shutdown timeout. Every accepted order is then in the
 * database once or still unread in the stream.
 */
class GracefulShutdownIntegrationTests {

    private static final int ORDERS = 8000;
    private static final int SHUTDOWN_TIMEOUT_SECONDS = 10;
    /** JVM teardown after Camel stopped: Tomcat, the pool, H2 closing its file, Redis writing its own. */
    private static final Duration TEARDOWN = Duration.ofSeconds(20);
    private static final Path WORK_DIR = Path.of("target", "graceful-shutdown", UUID.randomUUID().toString());

    ServiceProcess service;

    @AfterEach
    void killLeftover() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void sigtermFinishesTheBatchInHandAndLosesNothing() throws Exception {
        int redisPort = ServiceProcess.freePort();
        service = ServiceProcess.start("graceful", WORK_DIR, Map.of(
                "seckill.redis.port", Integer.toString(redisPort),
                "seckill.stream.consumer-name", "writer-g",
                "seckill.stream.batch-size", "100",
                "camel.main.shutdown-timeout", Integer.toString(SHUTDOWN_TIMEOUT_SECONDS)))
                .awaitHealthy(Duration.ofSeconds(180));
        List<Long> accepted;
        boolean exited;
        try (RedisPort embedded = RedisPort.connect(redisPort)) {
            OrderStreams streams = new OrderStreams(embedded.template());
            long voucher = service.api().createVoucher(ORDERS);
            accepted = new DirectAdmission(embedded.template()).admit(voucher, 1L << 51, 1, ORDERS);
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(10))
                    .until(() -> streams.length() <= ORDERS - 300);

            exited = service.stop(Duration.ofSeconds(SHUTDOWN_TIMEOUT_SECONDS).plus(TEARDOWN));
        }

        assertThat(exited).as("exited within the shutdown timeout").isTrue();
        // Camel stopped on its own, not forced at the timeout (as it was when Redis went first)
        assertThat(Files.readString(service.log())).contains("(seckill) shutdown in")
                .doesNotContain("Timeout occurred during graceful shutdown");
        List<Long> written = ServiceDatabase.open(ServiceDatabase.defaultUrl(WORK_DIR))
                .queryForList("SELECT order_id FROM orders", Long.class);
        // The embedded Redis stopped with the service; its append-only file says what it held.
        try (StandaloneRedis data = StandaloneRedis.reopen(WORK_DIR.resolve("data/redis"))) {
            OrderStreams streams = new OrderStreams(data.template());
            // XPENDING: the batch in hand was written and acknowledged, nothing is left held
            assertThat(streams.pending()).isZero();
            List<Long> unread = new ArrayList<>();
            // XRANGE: what the stopped consumer had not read yet
            data.template().opsForStream().range(OrderStreams.ORDERS, Range.unbounded())
                    .forEach(entry -> unread.add(Long.parseLong((String) entry.getValue().get("orderId"))));
            assertThat(unread).as("it stopped reading").isNotEmpty();
            assertThat(written).isNotEmpty().doesNotHaveDuplicates().doesNotContainAnyElementsOf(unread);
            List<Long> both = new ArrayList<>(written);
            both.addAll(unread);
            assertThat(both).containsExactlyInAnyOrderElementsOf(accepted);
        }
    }
}
