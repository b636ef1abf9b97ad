package io.seckill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.seckill.config.EmbeddedRedis;
import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.ApiClient;
import io.seckill.support.RunningService;
import io.seckill.support.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The service stopped and started again on the same data: an H2 file database and the embedded Redis's
 * append-only file, both under target/. One voucher is left alone; the other loses its Redis sale state (hash and
 * buyers set) while the service is down, with one accepted order not yet written, still in the stream.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ServiceRestartIntegrationTests {

    private static final int STOCK = 5;

    private final Path home = Path.of("target", "test-data", "restart-" + UUID.randomUUID()).toAbsolutePath();

    private long kept;
    private long lost;
    private final List<String> firstRunOrderIds = new ArrayList<>();
    private List<String> keptOrderIds;
    private List<String> lostOrderIds;
    private RunningService restarted;
    private String firstRunPassword;

    @BeforeAll
    void runStopAndStartAgain() throws Exception {
        List<String> lostKeys;
        try (RunningService first = start()) {
            ApiClient api = first.api();
            kept = api.createVoucher(STOCK);
            lost = api.createVoucher(STOCK);
            keptOrderIds = api.orderAccepted(kept, 1, 2);
            lostOrderIds = new ArrayList<>(api.orderAccepted(lost, 11, 12));
            Stores stores = first.stores();
            await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> {
                assertThat(stores.orderRows(kept)).isEqualTo(2);
                assertThat(stores.orderRows(lost)).isEqualTo(2);
            });

            // With the writer stopped, the next order is accepted but stays in the stream across the restart.
            first.camel().getRouteController().stopRoute("order-writer");
            lostOrderIds.addAll(api.orderAccepted(lost, 13));
            assertThat(first.streams().entriesOf(lost)).hasSize(1);

            firstRunPassword = first.bean(EmbeddedRedis.class).password();
            RedisKeys keys = first.bean(RedisKeys.class);
            lostKeys = List.of(keys.voucher(lost), keys.buyers(lost));
            firstRunOrderIds.addAll(keptOrderIds);
            firstRunOrderIds.addAll(lostOrderIds);
        }
        deleteWhileStopped(lostKeys);
        restarted = start();
    }

    @AfterAll
    void stop() {
        if (restarted != null) {
            restarted.close();
        }
    }

    @Test
    void voucherRemainingStockAndOrdersSurviveTheRestart() {
        ApiClient api = restarted.api();

        Answer voucher = api.get("/api/vouchers/" + kept);
        assertThat(voucher.status()).isEqualTo(200);
        assertThat(voucher.json().get("stock").asInt()).isEqualTo(STOCK);
        assertThat(voucher.json().get("remaining").asLong()).isEqualTo(STOCK - 2);
        for (int i = 0; i < keptOrderIds.size(); i++) {
            String orderId = keptOrderIds.get(i);
            // Buyers 1 and 2, in that order.
            assertThat(api.getOrder(orderId, i + 1).status()).as("order %s", orderId).isEqualTo(200);
        }
        assertThat(api.order(kept, 1).code()).isEqualTo("ALREADY_ORDERED");

        List<String> more = api.orderAccepted(kept, 3, 4, 5);

        // Order ids stay unique across restarts.
        assertThat(more).doesNotContainAnyElementsOf(firstRunOrderIds);
        assertThat(api.order(kept, 6).code()).isEqualTo("SOLD_OUT");
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(restarted.stores().orderRows(kept)).isEqualTo(STOCK));
    }

    @Test
    void theEmbeddedRedisKeepsItsPasswordAcrossTheRestart() {
        // The one made at the first start, in the data directory, taken again (the client authenticated with it).
        EmbeddedRedis redis = restarted.bean(EmbeddedRedis.class);
        assertThat(redis.password()).isEqualTo(firstRunPassword).hasSize(64);
        assertThat(redis.passwordFile()).isEqualTo(home.resolve("redis/password"));
    }

    @Test
    void lostRedisStateIsRebuiltCountingTheOrderStillInTheStreamAsSold() {
        ApiClient api = restarted.api();

        // Sold: two orders in the database and one still in the stream.
        assertThat(api.get("/api/vouchers/" + lost).json().get("remaining").asLong()).isEqualTo(STOCK - 3);
        for (long buyer : new long[] {11, 12, 13}) {
            assertThat(api.order(lost, buyer).code()).as("buyer %d", buyer).isEqualTo("ALREADY_ORDERED");
        }
        List<String> all = new ArrayList<>(lostOrderIds);
        all.addAll(api.orderAccepted(lost, 14, 15));
        assertThat(api.order(lost, 16).code()).isEqualTo("SOLD_OUT");

        // The order that waited in the stream (kept by the append-only file) is written now, once.
        Stores stores = restarted.stores();
        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(stores.rowsPerOrderId(lost)).isEqualTo(Stores.eachOnce(all)));
        assertThat(stores.jdbc().queryForList("SELECT user_id FROM orders WHERE voucher_id = ?", Long.class, lost))
                .containsExactlyInAnyOrder(11L, 12L, 13L, 14L, 15L);
        assertThat(api.get("/api/vouchers/" + lost).json().get("remaining").asLong()).isZero();
    }

    private RunningService start() {
        return RunningService.start(
                "--spring.datasource.url=jdbc:h2:file:" + home.resolve("db/seckill"),
                "--seckill.redis.data-dir=" + home.resolve("redis"));
    }

    /** What an operator (or a lost Redis) does to the voucher while the service is down: DEL hash and buyers. */
    private void deleteWhileStopped(List<String> keys) {
        try (EmbeddedRedis redis = EmbeddedRedis.start(0, home.resolve("redis"))) {
            // The same password again: the one in the data directory.
            assertThat(redis.password()).isEqualTo(firstRunPassword);
            RedisURI uri = RedisURI.create("127.0.0.1", redis.port());
            uri.setPassword(redis.password());
            RedisClient client = RedisClient.create(uri);
            try (StatefulRedisConnection<String, String> connection = client.connect()) {
                // DEL seckill:{s0}:voucher:<id> seckill:{s0}:buyers:<id>
                assertThat(connection.sync().del(keys.toArray(String[]::new))).isEqualTo(keys.size());
            } finally {
                client.shutdown();
            }
        }
    }
}
