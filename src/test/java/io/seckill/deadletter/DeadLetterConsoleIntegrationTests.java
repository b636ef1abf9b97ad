package io.seckill.deadletter;

import static io.seckill.support.OrderStreams.order;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.FaultInjectionTest;
import io.seckill.support.ApiClient;
import io.seckill.support.FaultyDatabase;
import io.seckill.support.OrderStreams;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import org.apache.camel.test.spring.junit5.DisableJmx;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The operator's console, MBean {@code seckill:type=DeadLetters}, used the way jconsole does: through the
 * platform MBeanServer, by name, with no classes of ours.
 */
@FaultInjectionTest
@DisableJmx(false)
class DeadLetterConsoleIntegrationTests {

    @Autowired
    FaultyDatabase database;

    @Autowired
    ApiClient api;

    @Autowired
    StringRedisTemplate redis;

    final MBeanServer jmx = ManagementFactory.getPlatformMBeanServer();
    ObjectName console;
    OrderStreams streams;
    JdbcTemplate db;

    @BeforeEach
    void quietStart() throws Exception {
        console = new ObjectName("seckill:type=DeadLetters");
        database.healAll();
        streams = new OrderStreams(redis);
        db = new JdbcTemplate(database.real());
        await().atMost(Duration.ofSeconds(60)).until(streams::quiet);
        streams.clearDeadLetters();
    }

    @Test
    void countAndListShowEachDeadLetter() throws Exception {
        // XADD: a malformed entry, then an order the database refuses
        String poison = streams.add(Map.of("orderId", "x", "voucherId", "1", "userId", "2", "acceptedAt", "3"));
        long voucher = api.createVoucher(1);
        long refused = deadLetterOf(order(nextOrderId(), voucher, 7));

        await().atMost(Duration.ofSeconds(30)).until(() -> count() == 2);
        CompositeData[] rows = list(10);
        assertThat(rows).hasSize(2);
        assertThat(rows[0].get("orderId")).isEqualTo("x");
        assertThat(rows[0].get("reason")).isEqualTo("entry " + poison + " has a bad orderId: 'x'");
        assertThat(rows[0].get("deliveries")).isEqualTo("1");
        assertThat(rows[1].get("orderId")).isEqualTo(Long.toString(refused));
        assertThat(rows[1].get("voucherId")).isEqualTo(Long.toString(voucher));
        assertThat(rows[1].get("userId")).isEqualTo("7");
        assertThat((String) rows[1].get("reason")).contains("injected failure writing order " + refused);
        assertThat(Long.parseLong((String) rows[1].get("failedAt"))).isPositive();
        assertThat((String) rows[1].get("id")).isEqualTo("s0:" + streams.deadLetters().get(1).get("id"));
        assertThat(list(1)).hasSize(1);
        assertThat(list(0)).isEmpty();
    }

    @Test
    void replayedOrderGoesThroughTheWriterAndLandsOnce() throws Exception {
        long orderId = deadLetterOf(order(nextOrderId(), api.createVoucher(1), 7));
        await().atMost(Duration.ofSeconds(30)).until(() -> count() == 1 && streams.quiet());
        String id = (String) list(1)[0].get("id");
        database.healAll();

        assertThat(invoke("replay", id)).isEqualTo(true);

        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOfOrder(orderId) == 1 && streams.quiet());
        assertThat(count()).isZero();
        assertThat(invoke("replay", id)).as("gone").isEqualTo(false);
        assertThat(invoke("replay", "not-an-id")).isEqualTo(false);
        assertThat(rowsOfOrder(orderId)).isEqualTo(1);
    }

    @Test
    void replayAllPutsEveryDeadLetterBack() throws Exception {
        long voucher = api.createVoucher(3);
        List<Long> orderIds = List.of(deadLetterOf(order(nextOrderId(), voucher, 1)),
                deadLetterOf(order(nextOrderId(), voucher, 2)), deadLetterOf(order(nextOrderId(), voucher, 3)));
        await().atMost(Duration.ofSeconds(30)).until(() -> count() == 3 && streams.quiet());
        database.healAll();

        assertThat(jmx.invoke(console, "replayAll", new Object[0], new String[0])).isEqualTo(3);

        await().atMost(Duration.ofSeconds(30)).until(() -> rowsOfVoucher(voucher) == 3 && streams.quiet());
        assertThat(count()).isZero();
        assertThat(db.queryForList("SELECT order_id FROM orders WHERE voucher_id = ?", Long.class, voucher))
                .containsExactlyInAnyOrderElementsOf(orderIds);
    }

    @Test
    void replayAllReplaysWhatWasThereOnceEvenIfItFailsAgain() throws Exception {
        // XADD ×100: entries that can never be written
        for (int i = 0; i < 100; i++) {
            streams.add(Map.of("orderId", "poison-" + i));
        }
        await().atMost(Duration.ofSeconds(30)).until(() -> count() == 100 && streams.quiet());

        // Each comes back as a new dead letter while the call runs; those are not replayed again.
        assertThat(jmx.invoke(console, "replayAll", new Object[0], new String[0])).isEqualTo(100);

        await().atMost(Duration.ofSeconds(30)).until(() -> count() == 100 && streams.quiet());
        assertThat(streams.deadLetters()).extracting(letter -> letter.get("orderId")).doesNotHaveDuplicates();
    }

    @Test
    void discardDeletesADeadLetterForGood() throws Exception {
        streams.add(Map.of("orderId", "garbage"));
        await().atMost(Duration.ofSeconds(30)).until(() -> count() == 1 && streams.quiet());
        String id = (String) list(1)[0].get("id");

        assertThat(invoke("discard", id)).isEqualTo(true);

        assertThat(count()).isZero();
        assertThat(streams.deadLetterCount()).isZero();
        assertThat(invoke("discard", id)).isEqualTo(false);
        assertThat(streams.length()).isZero();
    }

    @Test
    void aDiscardedOrderLeavesTheDueOrders() throws Exception {
        long orderId = deadLetterOf(order(nextOrderId(), api.createVoucher(1), 7));
        // As the admission script scheduled it: ZADD seckill:{s0}:orders:due <payBefore> <orderId>:<userId>
        String due = OrderStreams.ORDERS + ":due";
        String member = orderId + ":7";
        redis.opsForZSet().add(due, member, System.currentTimeMillis() + 900_000);
        await().atMost(Duration.ofSeconds(30)).until(() -> count() == 1 && streams.quiet());

        assertThat(invoke("discard", (String) list(1)[0].get("id"))).isEqualTo(true);

        // Never written, so never payable nor cancellable: nothing left for the expiry to put back again and again.
        assertThat(redis.opsForZSet().score(due, member)).isNull();
        assertThat(redis.opsForZSet().score(OrderStreams.ORDERS + ":cancelling", member)).isNull();
        assertThat(rowsOfOrder(orderId)).isZero();
    }

    @Test
    void camelsOwnMBeansStayOn() throws Exception {
        assertThat(jmx.queryNames(new ObjectName("org.apache.camel:type=routes,*"), null)).isNotEmpty();
    }

    /** XADDs an order the database refuses to write (until healed); answers its order id. */
    private long deadLetterOf(Map<String, String> entry) {
        long orderId = Long.parseLong(entry.get("orderId"));
        database.failWritesOf(orderId);
        streams.add(entry);
        return orderId;
    }

    private long count() throws Exception {
        return (Long) jmx.getAttribute(console, "Count");
    }

    private CompositeData[] list(int max) throws Exception {
        return (CompositeData[]) jmx.invoke(console, "list", new Object[] {max}, new String[] {"int"});
    }

    private Object invoke(String operation, String id) throws Exception {
        return jmx.invoke(console, operation, new Object[] {id}, new String[] {String.class.getName()});
    }

    private long rowsOfOrder(long orderId) {
        return db.queryForObject("SELECT COUNT(*) FROM orders WHERE order_id = ?", Long.class, orderId);
    }

    private long rowsOfVoucher(long voucherId) {
        return db.queryForObject("SELECT COUNT(*) FROM orders WHERE voucher_id = ?", Long.class, voucherId);
    }

    private static long nextOrderId() {
        return ThreadLocalRandom.current().nextLong(1L << 40, 1L << 62);
    }
}
