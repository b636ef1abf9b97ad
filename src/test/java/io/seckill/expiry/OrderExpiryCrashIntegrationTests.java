package io.seckill.expiry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import io.seckill.support.DirectAdmission;
import io.seckill.support.Invariants;
import io.seckill.support.OrderStreams;
import io.seckill.support.RouteControl;
import io.seckill.support.ServiceProcess;
import io.seckill.support.StandaloneRedis;
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
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.SingleConnectionDataSource;

/**
 * The expiry survives SIGKILL: an instance killed while it cancels leaves its orders leased in
 * {@code seckill:{s0}:orders:cancelling}; once the lease runs out the others take them and finish, and no unit
 * goes back twice or is lost. Then two instances (the other one and the killed one restarted) sweep the same due
 * orders at once, and again each unit goes back exactly once.
 *
 * <p>Child JVMs on a Redis and an H2 database (AUTO_SERVER, held open by the test) that outlive them. Orders are
 * admitted straight into Redis with the instances' own 1 s window, and nobody pays: every unit must come back.
 */
class OrderExpiryCrashIntegrationTests {

    private static final int FIRST_SALE = 3000;
    private static final int SECOND_SALE = 2000;
    private static final Duration WINDOW = Duration.ofSeconds(1);
    private static final Duration START = Duration.ofSeconds(180);
    private static final Duration SETTLED = Duration.ofSeconds(120);
    private static final String EXPIRY_ROUTE = "order-expiry";
    private static final Path ROOT = Path.of("target", "expiry-crash", UUID.randomUUID().toString());

    StandaloneRedis redis;
    SingleConnectionDataSource database;
    final List<ServiceProcess> instances = new ArrayList<>();

    @BeforeEach
    void startStores() throws Exception {
        redis = StandaloneRedis.start(ROOT.resolve("redis"));
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
    void ordersOfAnInstanceKilledWhileCancellingAreFinishedByOthersEachUnitReturnedOnce() throws Exception {
        StringRedisTemplate r = redis.template();
        RedisKeys keys = new RedisKeys(new StreamProperties(1, OrderStreams.GROUP, "x", 100, 100, 1));
        String cancelling = keys.cancellingOrdersOf(OrderStreams.ORDERS);
        String due = keys.dueOrdersOf(OrderStreams.ORDERS);
        JdbcTemplate db = new JdbcTemplate(database);
        Invariants invariants = new Invariants(r, db, keys);
        DirectAdmission admission = new DirectAdmission(r, WINDOW);

        ServiceProcess victim = start("expiry-a", "writer-a");
        ServiceProcess other = start("expiry-b", "writer-b");
        victim.awaitHealthy(START);
        other.awaitHealthy(START);
        long firstSale = victim.api().createVoucher(FIRST_SALE);

        // 1. Only the victim cancels; it is killed in the middle of it.
        try (RouteControl otherRoutes = RouteControl.attach(other)) {
            otherRoutes.stop(EXPIRY_ROUTE);
            assertThat(admission.admit(firstSale, 1L << 52, 1, FIRST_SALE)).hasSize(FIRST_SALE);
            // SIGKILL once units are coming back and orders are leased (ZCARD cancelling, HGET stock).
            victim.killAt(SETTLED, () -> remaining(r, keys, firstSale) >= 100 && r.opsForZSet().zCard(cancelling) > 0);
            long leftLeased = r.opsForZSet().zCard(cancelling);
            long returnedByVictim = remaining(r, keys, firstSale);
            assertThat(leftLeased).as("orders the killed instance left being cancelled").isPositive();
            assertThat(returnedByVictim).as("units the killed instance returned").isLessThan(FIRST_SALE);
            System.out.printf("Killed with %d orders leased, %d units returned, %d rows cancelled%n", leftLeased,
                    returnedByVictim, cancelledRows(db, firstSale));

            // 2. The other instance takes over, and the victim comes back: both sweep a second sale at once.
            otherRoutes.start(EXPIRY_ROUTE);
        }
        ServiceProcess restarted = start("expiry-a-again", "writer-a").awaitHealthy(START);
        long secondSale = restarted.api().createVoucher(SECOND_SALE);
        assertThat(admission.admit(secondSale, 1L << 53, 1, SECOND_SALE)).hasSize(SECOND_SALE);

        await().atMost(SETTLED).until(() -> remaining(r, keys, firstSale) == FIRST_SALE
                && remaining(r, keys, secondSale) == SECOND_SALE
                && r.opsForZSet().zCard(due) == 0 && r.opsForZSet().zCard(cancelling) == 0);
        OrderStreams streams = new OrderStreams(r);
        await().atMost(SETTLED).until(streams::quiet);
        // Both instances returned units: they really swept the same due orders.
        assertThat(returnedIn(other)).isPositive();
        assertThat(returnedIn(restarted)).isPositive();
        assertThat(other.stop(Duration.ofSeconds(60))).isTrue();
        assertThat(restarted.stop(Duration.ofSeconds(60))).isTrue();

        for (long voucher : List.of(firstSale, secondSale)) {
            long stock = voucher == firstSale ? FIRST_SALE : SECOND_SALE;
            Invariants.Ledger ledger = invariants.assertHold(voucher, stock);
            assertThat(ledger.rows()).as("live rows of voucher %d", voucher).isZero();
            assertThat(ledger.cancelledRows()).as("cancelled rows of voucher %d", voucher).isEqualTo(stock);
            assertThat(ledger.remaining()).as("every unit back once, none twice").isEqualTo(stock);
            assertThat(ledger.buyersInRedis()).isZero();
        }
    }

    private ServiceProcess start(String name, String consumerName) {
        Map<String, String> properties = new HashMap<>(redis.serviceProperties());
        properties.put("spring.datasource.url", databaseUrl());
        properties.put("seckill.stream.consumer-name", consumerName);
        properties.put("seckill.stream.block-millis", "200");
        properties.put("seckill.sweeper.period-millis", "500");
        properties.put("seckill.sweeper.min-idle-millis", "2000");
        properties.put("seckill.order.payment-timeout", WINDOW.toMillis() + "ms");
        properties.put("seckill.order.expiry.period-millis", "200");
        properties.put("seckill.order.expiry.batch-size", "50");
        properties.put("seckill.order.expiry.lease", "2s");
        properties.put("seckill.order.expiry.not-written-delay", "500ms");
        properties.put("logging.level.io.seckill.expiry", "DEBUG");
        ServiceProcess instance = ServiceProcess.start(name, ROOT.resolve(name), properties);
        instances.add(instance);
        return instance;
    }

    /** Units returned by this instance, as its metrics say (seckill_orders_units_returned_total). */
    private static double returnedIn(ServiceProcess instance) {
        return instance.api().prometheus().value("seckill_orders_units_returned_total");
    }

    private static long remaining(StringRedisTemplate r, RedisKeys keys, long voucher) {
        Object stock = r.opsForHash().get(keys.voucher(voucher), "stock"); // HGET
        return stock == null ? -1 : Long.parseLong(stock.toString());
    }

    private static long cancelledRows(JdbcTemplate db, long voucher) {
        return db.queryForObject("SELECT COUNT(*) FROM orders WHERE voucher_id = ? AND status = 'CANCELLED'",
                Long.class, voucher);
    }

    private static String databaseUrl() {
        return "jdbc:h2:file:" + ROOT.toAbsolutePath().resolve("db/seckill") + ";WRITE_DELAY=0;AUTO_SERVER=TRUE";
    }
}
