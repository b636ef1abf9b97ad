package io.seckill;

import static io.seckill.RedisOutageIntegrationTests.assertRedisUnavailable;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.OrderStreams;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.StandaloneRedis;
import io.seckill.support.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.connection.stream.StreamInfo.XInfoGroups;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * An external Redis (a redis-server the test owns, keeping an append-only file) restarts or loses its data under a
 * running service: the order readers, the sweeper and the intake carry on by themselves once it is back.
 */
@SeckillIntegrationTest
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
class ExternalRedisOutageIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final StandaloneRedis REDIS = StandaloneRedis.reopen(
            Path.of("target", "external-redis-outage", UUID.randomUUID().toString()));

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    CamelContext camel;

    @DynamicPropertySource
    static void externalRedis(DynamicPropertyRegistry registry) {
        REDIS.serviceProperties().forEach((key, value) -> registry.add(key, () -> value));
    }

    @AfterAll
    static void stopRedis() throws Exception {
        REDIS.close();
    }

    @Test
    void readersResumeAfterRedisWasStoppedFor20SecondsAndNothingIsLeftPending() throws Exception {
        long voucher = api.createVoucher(100);
        List<String> accepted = new ArrayList<>(api.orderAccepted(voucher, 1, 2, 3, 4, 5));

        REDIS.stop();
        try {
            // For 20 s every order is refused at once; readiness is DOWN, liveness UP.
            await().during(Duration.ofSeconds(20)).atMost(Duration.ofSeconds(40)).pollInterval(Duration.ofSeconds(1))
                    .untilAsserted(() -> {
                        long started = System.nanoTime();
                        Answer answer = api.order(voucher, 6);
                        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(1));
                        assertRedisUnavailable(answer);
                        assertThat(api.get("/actuator/health/readiness").status()).isEqualTo(503);
                        assertThat(api.get("/actuator/health/liveness").status()).isEqualTo(200);
                    });
        } finally {
            REDIS.restart();
        }

        await().atMost(DEADLINE).untilAsserted(() -> {
            Answer readiness = api.get("/actuator/health/readiness");
            assertThat(readiness.status()).as(readiness.body()).isEqualTo(200);
        });
        // The state check surveys the voucher on the restarted server; an order racing the survey can make it
        // rebuild the voucher: 503 VOUCHER_REBUILDING for a moment, which a buyer tries again after Retry-After.
        for (long buyer = 6; buyer <= 8; buyer++) {
            accepted.add(acceptedOnceRebuilt(voucher, buyer));
        }
        OrderStreams streams = new OrderStreams(stores.redis());
        // XLEN 0 and XPENDING 0: every entry read, written and acknowledged.
        await().atMost(DEADLINE).until(() -> streams.quiet() && stores.orderRows(voucher) == 8);
        assertThat(stores.rowsPerOrderId(voucher)).isEqualTo(Stores.eachOnce(accepted));
        assertThat(api.asOperator().get("/actuator/health").status()).isEqualTo(200);
    }

    @Test
    void afterFlushAllTheGroupIsCreatedAgainWithoutANogroupLoop(CapturedOutput output) {
        long before = api.createVoucher(10);
        api.orderAccepted(before, 1);
        await().atMost(DEADLINE).until(() -> stores.orderRows(before) == 1);

        // FLUSHALL: the streams, their group and every voucher's sale state are gone.
        REDIS.template().execute((RedisCallback<Void>) connection -> {
            connection.serverCommands().flushAll();
            return null;
        });

        // A voucher created afterwards sells and its orders are written: the readers created the group again.
        long after = api.createVoucher(10);
        await().atMost(DEADLINE).until(() -> api.order(after, 1).status() == 202);
        await().atMost(DEADLINE).until(() -> stores.orderRows(after) == 1);
        // XINFO GROUPS
        XInfoGroups groups = REDIS.template().opsForStream().groups(OrderStreams.ORDERS);
        assertThat(groups.stream().map(group -> group.groupName())).containsExactly(OrderStreams.GROUP);

        // The readers met NOGROUP and said so, once, not on every attempt; once the group is back, never again.
        long nogroupLines = nogroupLines(output);
        assertThat(nogroupLines).isBetween(1L, 4L);
        await().during(Duration.ofSeconds(5)).atMost(Duration.ofSeconds(10))
                .until(() -> nogroupLines(output) == nogroupLines);
        assertThat(output.getAll()).contains("consumer group order-writers was missing");
        assertThat(api.asOperator().get("/actuator/health").status()).isEqualTo(200);
    }

    @Test
    void aGroupLostWhileTheWriterWasStoppedIsReportedWhenTheWriterStartsAgain(CapturedOutput output) throws Exception {
        long before = api.createVoucher(10);
        api.orderAccepted(before, 1);
        await().atMost(DEADLINE).until(() -> stores.orderRows(before) == 1);

        // The operator stops the writer; meanwhile Redis loses its data. No read fails: nothing reads.
        camel.getRouteController().stopRoute("order-writer");
        try {
            REDIS.template().execute((RedisCallback<Void>) connection -> {
                connection.serverCommands().flushAll();
                return null;
            });
        } finally {
            camel.getRouteController().startRoute("order-writer");
        }

        long after = api.createVoucher(10);
        await().atMost(DEADLINE).until(() -> api.order(after, 1).status() == 202);
        await().atMost(DEADLINE).until(() -> stores.orderRows(after) == 1);
        // The readers made the group again, and said it had been lost with its entries.
        assertThat(output.getAll()).contains("consumer group order-writers was missing");
    }

    private String acceptedOnceRebuilt(long voucher, long buyer) {
        AtomicReference<Answer> answer = new AtomicReference<>();
        await().atMost(DEADLINE).pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
            answer.set(api.order(voucher, buyer));
            assertThat(answer.get().code()).as(answer.get().body()).isNotEqualTo("VOUCHER_REBUILDING");
        });
        assertThat(answer.get().status()).as(answer.get().body()).isEqualTo(202);
        return answer.get().json().get("orderId").asText();
    }

    private static long nogroupLines(CapturedOutput output) {
        return output.getAll().lines().filter(line -> line.contains("NOGROUP")).count();
    }
}
