package io.seckill.sweeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.OrderStreams;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.time.Duration;
import java.util.List;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Entries a consumer read and never acknowledged (it crashed, or another instance did and never came back) are
 * taken over by the sweeper once idle for min-idle-millis (2 s in tests) and written, once each.
 */
@SeckillIntegrationTest
class PendingSweeperIntegrationTests {

    private static final String DEAD_CONSUMER = "dead-consumer";

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    OrderStreams streams;

    @Autowired
    CamelContext camel;

    @Test
    void entriesAnotherConsumerReadAndNeverAcknowledgedAreClaimedAndWrittenOnce() throws Exception {
        long voucher = api.createVoucher(10);
        List<String> orderIds;
        // Keep this instance's writer away so the dead consumer is the one that reads the new entries.
        camel.getRouteController().stopRoute("order-writer");
        try {
            orderIds = api.orderAccepted(voucher, 1, 2, 3, 4, 5);
            // XREADGROUP GROUP order-writers dead-consumer ... >, then no XACK: the consumer "crashes"
            assertThat(streams.readAndAbandon(voucher, DEAD_CONSUMER)).hasSize(orderIds.size());
            assertThat(streams.pendingHeldBy(voucher, DEAD_CONSUMER)).isEqualTo(orderIds.size());
        } finally {
            camel.getRouteController().startRoute("order-writer");
        }

        // XAUTOCLAIM by the pending-sweeper once the entries idled 2 s, then write and XACK + XDEL
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(stores.rowsPerOrderId(voucher)).isEqualTo(Stores.eachOnce(orderIds)));
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(streams.pendingOf(voucher)).isEmpty();
            assertThat(streams.entriesOf(voucher)).isEmpty();
        });
        assertThat(streams.pendingHeldBy(voucher, DEAD_CONSUMER)).isZero();
        // Written and acknowledged, not dead-lettered after too many deliveries as well.
        assertThat(streams.deadLettersOf(voucher)).isEmpty();
        assertThat(stores.rowsPerOrderId(voucher)).isEqualTo(Stores.eachOnce(orderIds));
    }
}
