package io.seckill.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.api.WarmUpRequests;
import io.seckill.order.OrderView;
import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import io.seckill.support.SeckillIntegrationTest;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.component.redis.stream.StreamEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.stream.StreamRecords;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The warm-up's writer on its own (the warm-up itself is off in tests): the service's batch write into a schema of
 * the warm-up's own, made afresh over whatever a killed warm-up left, dropped with its rows at the end; and its
 * routes, whose batch the database refuses is dropped with a warning.
 */
@SeckillIntegrationTest
@ExtendWith(OutputCaptureExtension.class)
class WarmUpWriterIntegrationTests {

    @Autowired
    WarmUpWriter writer;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    RedisKeys keys;

    @Autowired
    StreamProperties streams;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    CamelContext camel;

    @AfterEach
    void dropSchema() throws Exception {
        for (String route : WarmUpWriterRoute.ids()) {
            if (camel.getRoute(route) != null) {
                camel.getRouteController().stopRoute(route);
                camel.removeRoute(route);
            }
        }
        camel.getRegistry().unbind(WarmUpWriterRoute.WRITER_BEAN);
        writer.close();
        redis.delete(redis.keys("seckill:warm-up:*"));
    }

    @Test
    void writesTheWarmUpsOrdersIntoItsOwnSchemaAndDropsIt() {
        String schema = writer.schema();
        assertThat(schema).isEqualTo("seckill_warm_up_" + keys.instance());
        // What a warm-up killed half-way would leave: its schema, with whatever was in it.
        jdbc.execute("CREATE SCHEMA \"" + schema + "\"");
        jdbc.execute("CREATE TABLE \"" + schema + "\".leftover (id INT)");

        writer.open();

        assertThat(tables(schema)).containsExactlyInAnyOrder("VOUCHERS", "ORDERS");
        // One batch with the orders of both vouchers whose orders the warm-up accepts, as its streams hold them.
        long onSale = WarmUpRequests.ON_SALE;
        long opening = WarmUpRequests.OPENING;
        String stream = keys.warmUp().ordersOf(onSale);
        List<OrderView> written = writer.orderWriter().writeBatch(List.of(entry(stream, "1-0", 101, onSale, 7),
                entry(stream, "1-1", 102, opening, 8), entry(stream, "1-2", 103, onSale, 9)), true);

        assertThat(written).extracting(OrderView::orderId).containsExactly("101", "102", "103");
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM \"" + schema + "\".orders", Long.class)).isEqualTo(3);
        assertThat(jdbc.queryForObject("SELECT sold FROM \"" + schema + "\".vouchers WHERE id = ?", Long.class,
                onSale)).isEqualTo(2);
        assertThat(jdbc.queryForObject("SELECT sold FROM \"" + schema + "\".vouchers WHERE id = ?", Long.class,
                opening)).isEqualTo(1);
        // None in the service's own tables.
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM orders", Long.class)).isZero();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM vouchers", Long.class)).isZero();
        assertThat(writer.written()).isEqualTo(3);

        writer.close();

        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SCHEMATA WHERE SCHEMA_NAME = ?",
                Long.class, schema)).isZero();
    }

    @Test
    void aBatchTheDatabaseRefusesIsDroppedWithAWarningAndAcknowledged(CapturedOutput output) throws Exception {
        // The warm-up's routes, as WarmUp starts them, on a schema whose orders table has gone (a disk full, an
        // operator's hand): every write of the warm-up fails.
        writer.open();
        camel.getRegistry().bind(WarmUpWriterRoute.WRITER_BEAN, writer.orderWriter());
        camel.addRoutes(new WarmUpWriterRoute(keys.warmUp(), streams));
        jdbc.execute("DROP TABLE \"" + writer.schema() + "\".orders");
        String stream = keys.warmUp().ordersOf(WarmUpRequests.ON_SALE);
        long now = System.currentTimeMillis();
        redis.opsForStream().add(StreamRecords.string(Map.of("orderId", "101", "voucherId",
                Long.toString(WarmUpRequests.ON_SALE), "userId", "7", "acceptedAt", Long.toString(now), "payBefore",
                Long.toString(now + 900_000))).withStreamKey(stream));

        // Tried, tried once more, then dropped: one line for the batch, and the reader acknowledges (and deletes) its
        // entry, as it does a written one; the warm-up goes on.
        String dropped = "Warm-up: a batch of 1 orders was not written, dropped: ";
        await().atMost(Duration.ofSeconds(10)).until(() -> output.getOut().contains(dropped));
        await().atMost(Duration.ofSeconds(10)).until(() -> redis.opsForStream().size(stream) == 0);
        assertThat(redis.opsForStream().pending(stream, streams.group()).getTotalPendingMessages()).isZero();
        assertThat(output.getOut().split(dropped, -1)).hasSize(2);
        // The database's own words, as an operator would read them.
        assertThat(output.getOut()).contains(dropped + "Table \"ORDERS\" not found");
        assertThat(writer.written()).isZero();
        assertThat(camel.getRouteController().getRouteStatus(WarmUpWriterRoute.WRITER).isStarted()).isTrue();
    }

    private List<String> tables(String schema) {
        return jdbc.queryForList("SELECT TABLE_NAME FROM INFORMATION_SCHEMA.TABLES WHERE TABLE_SCHEMA = ?",
                String.class, schema).stream().map(String::toUpperCase).toList();
    }

    private static StreamEntry entry(String stream, String id, long orderId, long voucherId, long userId) {
        long now = System.currentTimeMillis();
        return new StreamEntry(stream, id, Map.of("orderId", Long.toString(orderId), "voucherId",
                Long.toString(voucherId), "userId", Long.toString(userId), "acceptedAt", Long.toString(now),
                "payBefore", Long.toString(now + 900_000)));
    }
}
