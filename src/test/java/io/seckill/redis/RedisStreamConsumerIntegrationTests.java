package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import io.seckill.support.VoucherStreams;
import io.seckill.sweeper.SweeperProperties;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The {@code redis-stream:} consumer behind the order-writer route, as it restarts. */
@SeckillIntegrationTest
class RedisStreamConsumerIntegrationTests {

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    VoucherStreams streams;

    @Autowired
    StreamProperties stream;

    @Autowired
    CamelContext camel;

    @Autowired
    SweeperProperties sweeper;

    @Autowired
    StringRedisTemplate redis;

    @Test
    void consumerRestartedUnderItsNameFirstWritesWhatItHeldUnacknowledged() throws Exception {
        long voucher = api.createVoucher(10);
        List<String> orderIds;
        // The sweeper stays off: only the consumer's own re-read (ID 0) can write these entries.
        camel.getRouteController().stopRoute("pending-sweeper");
        camel.getRouteController().stopRoute("order-writer");
        try {
            orderIds = api.orderAccepted(voucher, 1, 2, 3, 4, 5);
            // XREADGROUP as this instance's consumer, no XACK: as if it died holding the batch
            assertThat(streams.readAndAbandon(voucher, stream.consumerName())).hasSize(orderIds.size());
            assertThat(streams.pendingOf(voucher)).hasSize(orderIds.size());

            // XREADGROUP ... STREAMS key 0: the restarted consumer re-reads its own pending entries first
            camel.getRouteController().startRoute("order-writer");

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(stores.rowsPerOrderId(voucher)).isEqualTo(Stores.eachOnce(orderIds)));
            await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
                assertThat(streams.pendingOf(voucher)).isEmpty();
                assertThat(streams.entriesOf(voucher)).isEmpty();
            });
            assertThat(streams.deadLettersOf(voucher)).isEmpty();
        } finally {
            camel.getRouteController().startRoute("order-writer");
            camel.getRouteController().startRoute("pending-sweeper");
        }
    }

    @Test
    void ownEntryDeliveredTooOftenIsNotReReadButLeftForTheSweeperToDeadLetter() throws Exception {
        long voucher = api.createVoucher(10);
        camel.getRouteController().stopRoute("pending-sweeper");
        camel.getRouteController().stopRoute("order-writer");
        try {
            List<String> orderIds = api.orderAccepted(voucher, 1, 2);
            List<MapRecord<String, Object, Object>> held = streams.readAndAbandon(voucher, stream.consumerName());
            MapRecord<String, Object, Object> poison = held.stream()
                    .filter(entry -> orderIds.get(0).equals(entry.getValue().get("orderId"))).findFirst().orElseThrow();
            // XCLAIM ... RETRYCOUNT: as if the entry had crashed its consumer at every restart so far
            long crashes = sweeper.maxDeliveries() + 1L;
            redis.execute((RedisCallback<Object>) connection -> connection.execute("XCLAIM",
                    bytes(poison.getStream()), bytes(stream.group()), bytes(stream.consumerName()), bytes("0"),
                    bytes(poison.getId().getValue()), bytes("RETRYCOUNT"), bytes(Long.toString(crashes))));

            // XREADGROUP ... 0, then XPENDING: the restarted consumer writes the other entry, not this one
            camel.getRouteController().startRoute("order-writer");

            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(stores.rowsPerOrderId(voucher)).isEqualTo(Stores.eachOnce(orderIds.subList(1, 2))));
            // XACK comes once the exchange completed, a moment after the row's commit
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() ->
                    assertThat(streams.pendingOf(voucher)).containsExactly(poison.getId().getValue()));

            // XAUTOCLAIM: the sweeper takes it over and, delivered too often and never written, dead-letters it
            camel.getRouteController().startRoute("pending-sweeper");
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                    assertThat(streams.deadLettersOf(voucher)).singleElement().satisfies(dead -> assertThat(
                            (Map<Object, Object>) dead.getValue())
                            .containsEntry("orderId", orderIds.get(0))
                            .containsEntry("reason", "exceeded " + sweeper.maxDeliveries() + " deliveries")));
            assertThat(streams.pendingOf(voucher)).isEmpty();
            assertThat(stores.rowsPerOrderId(voucher)).isEqualTo(Stores.eachOnce(orderIds.subList(1, 2)));
        } finally {
            camel.getRouteController().startRoute("order-writer");
            camel.getRouteController().startRoute("pending-sweeper");
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void anEndpointReadingThroughAnotherGroupAcknowledgesInThatGroup() throws Exception {
        String key = "stream-test:{" + UUID.randomUUID() + "}";
        String routeId = "auditors-" + UUID.randomUUID();
        List<Object> read = new CopyOnWriteArrayList<>();
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                from("redis-stream:" + key + "?group=auditors&consumerName=auditor-1&block=200ms&deleteAfterAck=true")
                        .routeId(routeId).process(exchange -> read.addAll(exchange.getIn().getBody(List.class)));
            }
        });
        try {
            // XADD ×3
            for (int n = 1; n <= 3; n++) {
                redis.opsForStream().add(key, Map.of("n", Integer.toString(n)));
            }
            await().atMost(Duration.ofSeconds(30)).until(() -> read.size() == 3);
            // XPENDING key auditors, XLEN key: acknowledged in the endpoint's own group, and gone
            await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
                assertThat(redis.opsForStream().pending(key, "auditors").getTotalPendingMessages()).isZero();
                assertThat(redis.opsForStream().size(key)).isZero();
            });
        } finally {
            camel.getRouteController().stopRoute(routeId);
            camel.removeRoute(routeId);
            redis.delete(key);
        }
    }
}
