package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.micrometer.core.instrument.MeterRegistry;
import io.seckill.config.EmbeddedRedis;
import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.Invariants;
import io.seckill.support.OnNettyEngine;
import io.seckill.support.RedisMonitor;
import io.seckill.support.SeckillIntegrationTest;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * On the netty-http engine an order this instance remembers the refusal of is answered before any route, word for
 * word as the order route answers it, and counted as the route counts it (a sixteenth of the NOT_STARTED refusals are
 * left to the route, which answers them the same); pipelined requests keep their order.
 */
@SeckillIntegrationTest
@OnNettyEngine
// Remembered for longer than the test takes: a refusal forgotten after the default 1 s goes to the route again.
@TestPropertySource(properties = "seckill.sale-view.ttl=5m")
class NettyRememberedRefusalsIntegrationTests {

    private static final Duration SETTLED = Duration.ofSeconds(30);
    private static final AtomicLong BUYERS = new AtomicLong(5000);

    @Autowired
    ApiClient api;

    @Autowired
    CamelContext camel;

    @Autowired
    MeterRegistry registry;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    RedisKeys keys;

    @Autowired
    EmbeddedRedis embeddedRedis;

    @Test
    void aRememberedSoldOutIsAnsweredAsTheRouteAnswersItWithoutRunningTheRoute() {
        long voucher = api.createVoucher(1);
        api.orderAccepted(voucher, buyer());
        String refused = order(voucher, buyer());
        // The first refusal runs the route (and the script); then the voucher's buyers are copied and it is known.
        Answer byTheRoute = answeredByTheRouteThenRemembered(refused, "SOLD_OUT");
        long routed = settledExchanges();
        double soldOut = counted("sold_out");
        double remembered = remembered();

        for (int i = 0; i < 20; i++) {
            assertThat(api.raw(refused)).as("the same status, headers and body as the route's").isEqualTo(byTheRoute);
        }
        // One order the route must answer (another voucher's) marks the end of the twenty in the route's count.
        api.orderAccepted(api.createVoucher(1), buyer());

        assertThat(settledExchanges()).as("exchanges of the route " + AdmissionMetrics.ROUTE_ID).isEqualTo(routed + 1);
        assertThat(counted("sold_out")).isEqualTo(soldOut + 20);
        assertThat(remembered()).isEqualTo(remembered + 20);
        new Invariants(redis, jdbc, keys).assertHold(voucher, 1);
    }

    @Test
    void aSixteenthOfTheRememberedNotStartedIsLeftToTheRouteWhichAnswersItTheSameWithoutRedis() {
        long voucher = api.createVoucher("{\"title\":\"Later\",\"stock\":5,\"beginAt\":\""
                + Instant.now().plus(Duration.ofHours(1)) + "\"}").json().get("id").asLong();
        String early = order(voucher, buyer());
        Answer byTheRoute = answeredByTheRouteThenRemembered(early, "NOT_STARTED");
        long routed = settledExchanges();
        double notStarted = counted("not_started");
        double remembered = remembered();
        int flood = 320;

        try (RedisMonitor monitor = RedisMonitor.start(embeddedRedis.port(), embeddedRedis.password())) {
            for (int i = 0; i < flood; i++) {
                assertThat(api.raw(early)).as("the same answer, whoever gives it").isEqualTo(byTheRoute);
            }
            // A command that reaches Redis after the last answer is seen before this one.
            redis.opsForHash().get(keys.voucher(voucher), "marker-of-the-test");
            await().atMost(SETTLED).until(() -> monitor.commandsNaming("marker-of-the-test") > 0);
            assertThat(monitor.scriptsNaming(keys.voucher(voucher))).as("scripts run on the voucher's hash").isZero();
        }
        api.orderAccepted(api.createVoucher(1), buyer());

        // One in 16 on average (20 of 320): none in 320 has a chance of 1 in 10^9.
        assertThat(settledExchanges() - routed - 1).as("NOT_STARTED answered by the route " + AdmissionMetrics.ROUTE_ID)
                .isBetween(1L, flood / 4L);
        assertThat(counted("not_started")).as("each answer counted once").isEqualTo(notStarted + flood);
        assertThat(remembered()).isEqualTo(remembered + flood);
        new Invariants(redis, jdbc, keys).assertHold(voucher, 5);
    }

    @Test
    void aWinnerClickingAgainHearsAlreadyOrderedFromMemoryOnAKeptAliveConnection() {
        long voucher = api.createVoucher(1);
        long winner = buyer();
        api.orderAccepted(voucher, winner);
        await().atMost(SETTLED).until(() -> {
            double before = remembered();
            assertThat(api.order(voucher, buyer()).code()).isEqualTo("SOLD_OUT");
            return remembered() > before;
        });
        long routed = settledExchanges();

        Answer again = api.order(voucher, winner);
        Answer loser = api.order(voucher, buyer());
        api.orderAccepted(api.createVoucher(1), buyer());

        assertThat(again.status()).isEqualTo(409);
        assertThat(again.code()).isEqualTo("ALREADY_ORDERED");
        assertThat(again.json().get("instance").asText()).isEqualTo("/api/vouchers/" + voucher + "/orders");
        assertThat(loser.code()).isEqualTo("SOLD_OUT");
        assertThat(settledExchanges()).isEqualTo(routed + 1);
    }

    @Test
    void pipelinedOrdersAreAnsweredInTheOrderTheyCame() throws Exception {
        long soldOut = api.createVoucher(1);
        api.orderAccepted(soldOut, buyer());
        await().atMost(SETTLED).until(() -> {
            double before = remembered();
            api.order(soldOut, buyer());
            return remembered() > before;
        });
        long onSale = api.createVoucher(1000);

        // The refusal from memory, sent right behind an order that waits for Redis, must not overtake it.
        for (int i = 0; i < 20; i++) {
            String pipelined = order(onSale, buyer()).replace("Connection: close\r\n", "")
                    + order(soldOut, buyer()).replace("Connection: close\r\n", "") + order(onSale, buyer());
            try (Socket connection = api.open(pipelined)) {
                String answers = new String(connection.getInputStream().readAllBytes(), StandardCharsets.ISO_8859_1);
                assertThat(Pattern.compile("HTTP/1\\.1 (\\d{3})").matcher(answers).results().map(m -> m.group(1)))
                        .as(answers).containsExactly("202", "409", "202");
            }
        }
    }

    /**
     * The first answer to REQUEST, by the route (and the script), which must refuse it with CODE; returns once the
     * same request is refused from memory.
     */
    private Answer answeredByTheRouteThenRemembered(String request, String code) {
        Answer byTheRoute = api.raw(request);
        assertThat(byTheRoute.code()).isEqualTo(code);
        await().atMost(SETTLED).until(() -> {
            double before = remembered();
            api.raw(request);
            return remembered() > before;
        });
        return byTheRoute;
    }

    /**
     * The order route's exchanges as Prometheus shows them ({@code camel_exchanges_total}), once none is in flight
     * and the count holds still (an exchange is counted as its answer goes out).
     */
    private long settledExchanges() {
        long[] total = new long[1];
        await().atMost(SETTLED).pollInterval(Duration.ofMillis(50)).until(() -> {
            long before = exchanges();
            boolean settled = camel.getInflightRepository().size(AdmissionMetrics.ROUTE_ID) == 0
                    && exchanges() == before && total[0] == before;
            total[0] = before;
            return settled;
        });
        return total[0];
    }

    private long exchanges() {
        return (long) api.asOperator().prometheus().sum("camel_exchanges_total",
                "routeId=\"" + AdmissionMetrics.ROUTE_ID + "\"");
    }

    private double counted(String outcome) {
        return registry.get("seckill.admissions").tag("outcome", outcome).counter().count();
    }

    private double remembered() {
        return registry.get("seckill.admissions.remembered").counter().count();
    }

    private static String order(long voucher, long buyer) {
        return "POST /api/vouchers/" + voucher + "/orders HTTP/1.1\r\nHost: localhost\r\nX-User-Id: " + buyer
                + "\r\nConnection: close\r\n\r\n";
    }

    private static long buyer() {
        return BUYERS.incrementAndGet();
    }
}
