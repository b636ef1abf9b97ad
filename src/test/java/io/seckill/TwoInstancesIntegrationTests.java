package io.seckill;

import static io.seckill.support.OrderStreams.order;
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
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two instances consume and sweep one stream at once, with a crashed third consumer's entries for both sweepers
 * to race for (XAUTOCLAIM), some of them delivered too often already. Each order is written once, each
 * over-delivered entry becomes exactly one dead letter.
 */
class TwoInstancesIntegrationTests {

    private static final int ORDERS = 6000;
    private static final int LEFT_BY_THE_CRASHED = 600;
    private static final int OVER_DELIVERED = 20;
    private static final int MAX_DELIVERIES = 3;
    private static final Path ROOT = Path.of("target", "two-instances", UUID.randomUUID().toString());

    StandaloneRedis redis;
    final List<ServiceProcess> instances = new ArrayList<>();

    @BeforeEach
    void startRedis() {
        redis = StandaloneRedis.start(ROOT.resolve("redis"));
    }

    @AfterEach
    void stopAll() throws Exception {
        instances.forEach(ServiceProcess::close);
        redis.close();
    }

    @Test
    void eachOrderIsWrittenOnceAndEachGiveUpIsOneDeadLetter() throws Exception {
        Path workDir = ROOT.resolve("service");
        // One H2 file for both: the first to open it serves it to the other (AUTO_SERVER, which H2 does not
        // combine with DB_CLOSE_ON_EXIT=FALSE; both are stopped only once everything is written).
        String url = "jdbc:h2:file:" + workDir.toAbsolutePath().resolve("data/db/seckill")
                + ";WRITE_DELAY=0;AUTO_SERVER=TRUE";
        ServiceProcess x = start("pair-x", workDir, url, "writer-x");
        ServiceProcess y = start("pair-y", workDir, url, "writer-y");
        x.awaitHealthy(Duration.ofSeconds(180));
        y.awaitHealthy(Duration.ofSeconds(180));
        OrderStreams streams = new OrderStreams(redis.template());
        long voucher = x.api().createVoucher(ORDERS);
        // The crashed consumer's orders are of a voucher of their own: the database takes only units it has.
        long leftVoucher = x.api().createVoucher(LEFT_BY_THE_CRASHED + OVER_DELIVERED);

        // XADD + XCLAIM: what a consumer that died long ago held, some of it delivered too often already
        List<Long> leftOrders = new ArrayList<>();
        List<String> overDelivered = new ArrayList<>();
        for (int i = 0; i < LEFT_BY_THE_CRASHED + OVER_DELIVERED; i++) {
            long orderId = (1L << 52) + i;
            if (i < LEFT_BY_THE_CRASHED) {
                leftOrders.add(orderId);
                streams.addPendingFor("writer-gone", 1, 600_000, order(orderId, leftVoucher, i + 1));
            } else {
                overDelivered.add(streams.addPendingFor("writer-gone", MAX_DELIVERIES, 600_000,
                        order(orderId, leftVoucher, i + 1)));
            }
        }
        List<Long> accepted = new DirectAdmission(redis.template()).admit(voucher, 1L << 53, 1, ORDERS);

        await().atMost(Duration.ofSeconds(180)).until(streams::quiet);
        assertThat(x.stop(Duration.ofSeconds(60))).isTrue();
        assertThat(y.stop(Duration.ofSeconds(60))).isTrue();

        JdbcTemplate db = ServiceDatabase.open(url);
        assertThat(db.queryForList("SELECT order_id FROM orders WHERE voucher_id = ?", Long.class, voucher))
                .doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(accepted);
        assertThat(db.queryForList("SELECT order_id FROM orders WHERE voucher_id = ?", Long.class, leftVoucher))
                .doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(leftOrders);
        assertThat(streams.deadLetters()).extracting(letter -> letter.get("sourceId"))
                .containsExactlyInAnyOrderElementsOf(overDelivered);
        assertThat(streams.deadLetters()).allSatisfy(letter -> assertThat(letter)
                .containsEntry("reason", "exceeded " + MAX_DELIVERIES + " deliveries"));
        // Both sweepers took part.
        assertThat(Files.readString(x.log())).contains("Sweep of seckill:{s0}:orders: claimed");
        assertThat(Files.readString(y.log())).contains("Sweep of seckill:{s0}:orders: claimed");
    }

    private ServiceProcess start(String name, Path workDir, String url, String consumerName) {
        Map<String, String> properties = new HashMap<>(redis.serviceProperties());
        properties.put("spring.datasource.url", url);
        properties.put("seckill.stream.consumer-name", consumerName);
        properties.put("seckill.stream.batch-size", "100");
        properties.put("seckill.sweeper.period-millis", "200");
        properties.put("seckill.sweeper.min-idle-millis", "1000");
        properties.put("seckill.sweeper.batch-size", "50");
        properties.put("seckill.sweeper.max-deliveries", Integer.toString(MAX_DELIVERIES));
        ServiceProcess instance = ServiceProcess.start(name, workDir, properties);
        instances.add(instance);
        return instance;
    }
}
