package io.seckill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.DirectAdmission;
import io.seckill.support.OrderStreams;
import io.seckill.support.ServiceDatabase;
import io.seckill.support.ServiceProcess;
import io.seckill.support.StandaloneRedis;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.domain.Range;

/**
 * SIGTERM while draining: the instance stops reading, finishes and acknowledges the batch in hand, and exits
 * within its shutdown timeout. Every accepted order is then in the database once or still unread in the stream.
 */
class GracefulShutdownIntegrationTests {

    private static final int ORDERS = 8000;
    private static final int SHUTDOWN_TIMEOUT_SECONDS = 10;
    /** JVM teardown after Camel stopped: Tomcat, the pool, H2 closing its file, Lettuce. */
    private static final Duration TEARDOWN = Duration.ofSeconds(20);
    private static final Path ROOT = Path.of("target", "graceful-shutdown", UUID.randomUUID().toString());

    StandaloneRedis redis;
    ServiceProcess service;

    @BeforeEach
    void startRedis() {
        redis = StandaloneRedis.start(ROOT.resolve("redis"));
    }

    @AfterEach
    void stopAll() throws Exception {
        if (service != null) {
            service.close();
        }
        redis.close();
    }

    @Test
    void sigtermFinishesTheBatchInHandAndLosesNothing() throws Exception {
        Path workDir = ROOT.resolve("service");
        Map<String, String> properties = new HashMap<>(redis.serviceProperties());
        properties.put("seckill.stream.consumer-name", "writer-g");
        properties.put("seckill.stream.batch-size", "100");
        properties.put("camel.main.shutdown-timeout", Integer.toString(SHUTDOWN_TIMEOUT_SECONDS));
        service = ServiceProcess.start("graceful", workDir, properties).awaitHealthy(Duration.ofSeconds(180));
        OrderStreams streams = new OrderStreams(redis.template());
        long voucher = service.api().createVoucher(ORDERS);
        List<Long> accepted = new DirectAdmission(redis.template()).admit(voucher, 1L << 51, 1, ORDERS);
        await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(10))
                .until(() -> streams.length() <= ORDERS - 300);

        boolean exited = service.stop(Duration.ofSeconds(SHUTDOWN_TIMEOUT_SECONDS).plus(TEARDOWN));

        assertThat(exited).as("exited within the shutdown timeout").isTrue();
        assertThat(Files.readString(service.log())).contains("(seckill) shutdown in");
        // XPENDING: the batch in hand was written and acknowledged, nothing is left held
        assertThat(streams.pending()).isZero();
        List<Long> written = ServiceDatabase.open(ServiceDatabase.defaultUrl(workDir))
                .queryForList("SELECT order_id FROM orders WHERE voucher_id = ?", Long.class, voucher);
        List<Long> unread = new ArrayList<>();
        // XRANGE: what the stopped consumer had not read yet
        redis.template().opsForStream().range(OrderStreams.ORDERS, Range.unbounded())
                .forEach(entry -> unread.add(Long.parseLong((String) entry.getValue().get("orderId"))));
        assertThat(unread).as("it stopped reading").isNotEmpty();
        assertThat(written).isNotEmpty().doesNotHaveDuplicates().doesNotContainAnyElementsOf(unread);
        List<Long> both = new ArrayList<>(written);
        both.addAll(unread);
        assertThat(both).containsExactlyInAnyOrderElementsOf(accepted);
    }
}
