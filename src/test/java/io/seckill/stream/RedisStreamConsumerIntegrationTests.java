package io.seckill.stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.VoucherStreams;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.time.Duration;
import java.util.List;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

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
}
