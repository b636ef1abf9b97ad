package io.seckill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import io.seckill.support.DirectAdmission;
import io.seckill.support.FlashCrowd.Outcome;
import io.seckill.support.FlashCrowd;
import io.seckill.support.Invariants;
import io.seckill.support.OrderStreams;
import io.seckill.support.RouteControl;
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
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * Two instances behind a load balancer take a flash crowd, and one of them is killed (SIGKILL) while the orders
 * are still being written. The survivor's sweeper takes over the batch the dead one held (XAUTOCLAIM) and the
 * survivor finishes the drain: every voucher sold exactly its stock and each accepted order is one row.
 *
 * <p>The instances are child JVMs on a Redis and an H2 database the test owns, both outliving the instance that
 * dies, as real servers would. While the crowd is answered the writers are stopped (over JMX), as if the database
 * were slow, so its orders queue in the stream behind a backlog accepted a moment earlier; the victim dies with
 * its first batch in hand once they run again.
 */
class MultiInstanceCrashIntegrationTests {

    private static final int STOCK = 100;
    /** Buyers per voucher, and how many of them order a second time. */
    private static final int BUYERS = 800;
    private static final int TWICE = 200;
    private static final int BACKLOG = 10_000;
    private static final String WRITER_ROUTE = "order-writer";
    private static final String VICTIM = "writer-x";
    private static final String SURVIVOR = "writer-y";
    private static final Duration START = Duration.ofSeconds(180);
    private static final Path ROOT = Path.of("target", "multi-instance-crash", UUID.randomUUID().toString());

    StandaloneRedis redis;
    SingleConnectionDataSource database;
    final List<ServiceProcess> instances = new ArrayList<>();

    @BeforeEach
    void startStores() throws Exception {
        redis = StandaloneRedis.start(ROOT.resolve("redis"));
        // The test opens the H2 file first and keeps it open: its JVM serves it to both instances (AUTO_SERVER,
        // which H2 does not combine with DB_CLOSE_ON_EXIT=FALSE), so killing either leaves the database up.
        database = new SingleConnectionDataSource(databaseUrl(), "sa", "", true);
        database.initConnection();
    }

    @AfterEach
    void stopAll() throws Exception {
        instances.forEach(ServiceProcess::close);
        database.destroy();
        redis.close();
    }

    @Test
    void theSurvivorFinishesWhatTheKilledInstanceHeld() throws Exception {
        ServiceProcess victim = start("crowd-x", VICTIM);
        ServiceProcess survivor = start("crowd-y", SURVIVOR);
        victim.awaitHealthy(START);
        survivor.awaitHealthy(START);
        OrderStreams streams = new OrderStreams(redis.template());
        JdbcTemplate db = new JdbcTemplate(database);
        Invariants invariants = new Invariants(redis.template(), db,
                new RedisKeys(new StreamProperties(1, OrderStreams.GROUP, SURVIVOR, 100, 100, 1)));
        List<Long> vouchers = List.of(victim.api().createVoucher(STOCK), survivor.api().createVoucher(STOCK),
                victim.api().createVoucher(STOCK));
        long earlierSale = survivor.api().createVoucher(BACKLOG);

        // The writers wait while the orders come in, as behind a slow database: the crowd's orders queue in the
        // stream behind a backlog accepted a moment earlier (EVALSHA admitOrder-6, pipelined).
        List<Long> earlierOrders;
        List<Outcome> outcomes;
        try (RouteControl victimRoutes = RouteControl.attach(victim);
                RouteControl survivorRoutes = RouteControl.attach(survivor)) {
            victimRoutes.stop(WRITER_ROUTE);
            survivorRoutes.stop(WRITER_ROUTE);
            earlierOrders = new DirectAdmission(redis.template()).admit(earlierSale, 1L << 54, 1, BACKLOG);
            // Every other request to the other instance; buyers 1..TWICE order twice.
            outcomes = FlashCrowd.send(FlashCrowd.orders(vouchers, BUYERS, TWICE), 8, victim.api(), survivor.api());
            victimRoutes.start(WRITER_ROUTE);
            survivorRoutes.start(WRITER_ROUTE);
        }

        // SIGKILL as soon as the victim holds a batch it has not acknowledged (XPENDING).
        victim.killAt(Duration.ofSeconds(60), () -> heldBy(VICTIM) > 0);
        assertThat(heldBy(VICTIM)).as("entries the killed instance held unacknowledged").isPositive();
        assertThat(vouchers.stream().mapToLong(voucher -> invariants.ledger(voucher).inStream()).sum())
                .as("orders of the crowd unwritten when the victim was killed (XRANGE)").isPositive();

        await().atMost(Duration.ofSeconds(120)).until(streams::quiet);
        assertThat(survivor.stop(Duration.ofSeconds(60))).as("survivor stopped gracefully").isTrue();

        assertThat(outcomes).allSatisfy(outcome -> assertThat(outcome.status()).as("%s", outcome).isIn(202, 409));
        for (long voucher : vouchers) {
            List<Long> accepted = outcomes.stream()
                    .filter(outcome -> outcome.accepted() && outcome.order().voucherId() == voucher)
                    .map(outcome -> Long.parseLong(outcome.orderId())).toList();
            assertThat(accepted).as("202 answers for voucher %d", voucher).hasSize(STOCK);
            assertThat(ordersOf(db, voucher)).as("rows of voucher %d", voucher).doesNotHaveDuplicates()
                    .containsExactlyInAnyOrderElementsOf(accepted);
            assertThat(invariants.assertHold(voucher, STOCK).remaining()).isZero();
        }
        assertThat(ordersOf(db, earlierSale)).doesNotHaveDuplicates()
                .containsExactlyInAnyOrderElementsOf(earlierOrders);
        invariants.assertHold(earlierSale, BACKLOG);
        assertThat(streams.length()).as("stream entries left (XLEN)").isZero();
        assertThat(streams.pending()).as("entries pending (XPENDING)").isZero();
        assertThat(streams.deadLetterCount()).as("dead letters").isZero();
        assertThat(Files.readString(survivor.log())).as("the survivor's sweeper took over")
                .contains("Sweep of " + OrderStreams.ORDERS + ": claimed");
    }

    private ServiceProcess start(String name, String consumerName) {
        Map<String, String> properties = new HashMap<>(redis.serviceProperties());
        properties.put("spring.datasource.url", databaseUrl());
        properties.put("seckill.stream.consumer-name", consumerName);
        properties.put("seckill.rate-limit.per-buyer.rate", "0");
        properties.put("seckill.rate-limit.per-address.rate", "0");
        properties.put("seckill.stream.batch-size", "200");
        properties.put("seckill.stream.block-millis", "200");
        properties.put("seckill.sweeper.period-millis", "500");
        properties.put("seckill.sweeper.min-idle-millis", "2000");
        ServiceProcess instance = ServiceProcess.start(name, ROOT.resolve(name), properties);
        instances.add(instance);
        return instance;
    }

    private static String databaseUrl() {
        return "jdbc:h2:file:" + ROOT.toAbsolutePath().resolve("db/seckill") + ";WRITE_DELAY=0;AUTO_SERVER=TRUE";
    }

    private static List<Long> ordersOf(JdbcTemplate db, long voucher) {
        return db.queryForList("SELECT order_id FROM orders WHERE voucher_id = ?", Long.class, voucher);
    }

    /** XPENDING summary: entries this consumer was given and has not acknowledged. */
    private long heldBy(String consumer) {
        return redis.template().opsForStream().pending(OrderStreams.ORDERS, OrderStreams.GROUP)
                .getPendingMessagesPerConsumer().getOrDefault(consumer, 0L);
    }
}
