package io.seckill;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient.Answer;
import io.seckill.support.DirectAdmission;
import io.seckill.support.OrderStreams;
import io.seckill.support.RedisPort;
import io.seckill.support.ServiceDatabase;
import io.seckill.support.ServiceProcess;
import io.seckill.support.StandaloneRedis;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.core.RedisCallback;

/**
 * SIGTERM while draining, in the default set-up (embedded Redis, H2 file): the instance stops reading, finishes
 * and acknowledges the batch in hand, and exits within its shutdown timeout. Every accepted order is then in the
 * database once or still unread in the stream. And SIGTERM with orders in flight on the netty-http engine: Camel
 * stops taking requests and answers those in flight before Netty closes its connections, so no taken order loses
 * its answer (Redis is paused so the orders are surely waiting in the service when the signal comes).
 */
class GracefulShutdownIntegrationTests {

    private static final int ORDERS = 8000;
    private static final int SHUTDOWN_TIMEOUT_SECONDS = 10;
    /** JVM teardown after Camel stopped: Tomcat, the pool, H2 closing its file, Redis writing its own. */
    private static final Duration TEARDOWN = Duration.ofSeconds(20);
    private static final Path WORK = Path.of("target", "graceful-shutdown", UUID.randomUUID().toString());
    private static final Path WORK_DIR = WORK.resolve("writer");
    /** Orders held in flight on the netty-http engine when the signal comes. */
    private static final int IN_FLIGHT = 16;

    ServiceProcess service;

    @AfterEach
    void killLeftover() {
        if (service != null) {
            service.close();
        }
    }

    @Test
    void sigtermFinishesTheBatchInHandAndLosesNothing() throws Exception {
        int redisPort = ServiceProcess.freePort();
        service = ServiceProcess.start("graceful", WORK_DIR, Map.of(
                "seckill.redis.port", Integer.toString(redisPort),
                "seckill.stream.consumer-name", "writer-g",
                "seckill.stream.batch-size", "100",
                "camel.main.shutdown-timeout", Integer.toString(SHUTDOWN_TIMEOUT_SECONDS)))
                .awaitHealthy(Duration.ofSeconds(180));
        List<Long> accepted;
        boolean exited;
        try (RedisPort embedded = RedisPort.connectEmbedded(redisPort, WORK_DIR.resolve("data/redis"))) {
            OrderStreams streams = new OrderStreams(embedded.template());
            long voucher = service.api().createVoucher(ORDERS);
            accepted = new DirectAdmission(embedded.template()).admit(voucher, 1L << 51, 1, ORDERS);
            await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(10))
                    .until(() -> streams.length() <= ORDERS - 300);

            exited = service.stop(Duration.ofSeconds(SHUTDOWN_TIMEOUT_SECONDS).plus(TEARDOWN));
        }

        assertThat(exited).as("exited within the shutdown timeout").isTrue();
        // Camel stopped on its own, not forced at the timeout (as it was when Redis went first)
        assertThat(Files.readString(service.log())).contains("(seckill) shutdown in")
                .doesNotContain("Timeout occurred during graceful shutdown");
        List<Long> written = ServiceDatabase.open(ServiceDatabase.defaultUrl(WORK_DIR))
                .queryForList("SELECT order_id FROM orders", Long.class);
        // The embedded Redis stopped with the service; its append-only file says what it held.
        try (StandaloneRedis data = StandaloneRedis.reopen(WORK_DIR.resolve("data/redis"))) {
            OrderStreams streams = new OrderStreams(data.template());
            // XPENDING: the batch in hand was written and acknowledged, nothing is left held
            assertThat(streams.pending()).isZero();
            List<Long> unread = new ArrayList<>();
            // XRANGE: what the stopped consumer had not read yet
            data.template().opsForStream().range(OrderStreams.ORDERS, Range.unbounded())
                    .forEach(entry -> unread.add(Long.parseLong((String) entry.getValue().get("orderId"))));
            assertThat(unread).as("it stopped reading").isNotEmpty();
            assertThat(written).isNotEmpty().doesNotHaveDuplicates().doesNotContainAnyElementsOf(unread);
            List<Long> both = new ArrayList<>(written);
            both.addAll(unread);
            assertThat(both).containsExactlyInAnyOrderElementsOf(accepted);
        }
    }

    @Test
    void sigtermAnswersEveryOrderInFlightBeforeNettyCloses() throws Exception {
        int redisPort = ServiceProcess.freePort();
        Path workDir = WORK.resolve("netty");
        service = ServiceProcess.start("netty-graceful", workDir, Map.of(
                "seckill.api.engine", "netty-http",
                "seckill.redis.port", Integer.toString(redisPort),
                "seckill.stream.consumer-name", "writer-ng",
                "seckill.rate-limit.per-buyer.rate", "0",
                "seckill.rate-limit.per-address.rate", "0",
                "spring.data.redis.timeout", "30s"))
                .awaitHealthy(Duration.ofSeconds(180));
        long voucher = service.api().createVoucher(IN_FLIGHT);
        ExecutorService buyers = Executors.newFixedThreadPool(IN_FLIGHT);
        List<CompletableFuture<Answer>> orders = new ArrayList<>();
        boolean exited;
        try (RedisPort redis = RedisPort.connectEmbedded(redisPort, workDir.resolve("data/redis"))) {
            // Redis takes no command from anyone for 8 s (the service's command timeout is 30 s here).
            redis.template().execute((RedisCallback<Object>) connection -> connection.execute("CLIENT",
                    "PAUSE".getBytes(StandardCharsets.US_ASCII), "8000".getBytes(StandardCharsets.US_ASCII)));
            for (long buyer = 1; buyer <= IN_FLIGHT; buyer++) {
                long id = buyer;
                orders.add(CompletableFuture.supplyAsync(() -> service.api().order(voucher, id), buyers));
            }
            await().atMost(Duration.ofSeconds(6)).pollInterval(Duration.ofMillis(50))
                    .until(() -> inFlight("place-order") == IN_FLIGHT);

            exited = service.stop(Duration.ofSeconds(60));
        } finally {
            buyers.shutdown();
            buyers.awaitTermination(30, TimeUnit.SECONDS);
        }

        assertThat(exited).as("exited within the shutdown timeout").isTrue();
        List<Long> accepted = new ArrayList<>();
        for (CompletableFuture<Answer> order : orders) {
            // An answer that never came fails here (the connection closed under it).
            Answer answer = order.get();
            assertThat(answer.status()).as(answer.body()).isEqualTo(202);
            accepted.add(Long.parseLong(answer.json().get("orderId").asText()));
        }
        // Each answered order was taken: written, or still in the stream for the next start.
        List<Long> taken = new ArrayList<>(ServiceDatabase.open(ServiceDatabase.defaultUrl(workDir))
                .queryForList("SELECT order_id FROM orders", Long.class));
        try (StandaloneRedis data = StandaloneRedis.reopen(workDir.resolve("data/redis"))) {
            data.template().opsForStream().range(OrderStreams.ORDERS, Range.unbounded())
                    .forEach(entry -> taken.add(Long.parseLong((String) entry.getValue().get("orderId"))));
        }
        assertThat(taken).containsExactlyInAnyOrderElementsOf(accepted);
    }

    /** The route's exchanges in flight, from Camel's MBean through Jolokia on the management port. */
    private double inFlight(String routeId) {
        Answer answer = service.api().asOperator().post("/actuator/jolokia", "{\"type\":\"read\",\"mbean\":"
                + "\"org.apache.camel:context=seckill,type=routes,name=\\\"" + routeId + "\\\"\",\"attribute\":"
                + "\"ExchangesInflight\"}");
        return answer.status() == 200 ? answer.json().get("value").asDouble() : -1;
    }
}
