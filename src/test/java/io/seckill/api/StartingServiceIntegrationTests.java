package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.seckill.Application;
import io.seckill.config.EmbeddedRedis;
import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.SharedEmbeddedRedis;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.camel.CamelContext;
import org.apache.camel.spring.boot.CamelContextConfiguration;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.autoconfigure.jdbc.DataSourceProperties;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Between Tomcat listening and Camel running the routes, the API answers 503 UNAVAILABLE with Retry-After, not
 * 404. A second instance of the service (on this test's Redis and database) is held in that moment: its Camel
 * context waits to start until the test lets it.
 */
@SeckillIntegrationTest
class StartingServiceIntegrationTests {

    @Autowired
    EmbeddedRedis embeddedRedis;

    @Autowired
    DataSourceProperties dataSource;

    @Test
    void theApiAnswers503WithRetryAfterUntilItsRoutesRunThenServes() throws Exception {
        CountDownLatch routesMayStart = new CountDownLatch(1);
        int port = freePort();
        CompletableFuture<ConfigurableApplicationContext> started = start(routesMayStart, "--server.port=" + port);
        ApiClient api = new ApiClient("http://127.0.0.1:" + port);
        try {
            // Tomcat listens before the routes run: the first answer that comes is the one to check.
            Answer order = await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .ignoreExceptionsInstanceOf(UncheckedIOException.class)
                    .until(() -> api.order(1, 7), answer -> answer != null);
            assertUnavailable(order);
            assertUnavailable(api.get("/api/vouchers/1"));
            assertUnavailable(api.get("/api-doc"));
            // Not held: the operator's side answers, and says it is not ready.
            assertThat(api.get("/actuator/health/readiness").status()).isEqualTo(503);
        } finally {
            routesMayStart.countDown();
        }
        assertServesOnceStarted(started, api);
    }

    /** Netty binds the API's port as the first REST route starts: before, a buyer's connection is refused. */
    @Test
    void onNettyTheApiPortIsClosedUntilItsRoutesRunThenServes() throws Exception {
        CountDownLatch routesMayStart = new CountDownLatch(1);
        int port = freePort();
        int managementPort = freePort();
        CompletableFuture<ConfigurableApplicationContext> started = start(routesMayStart, "--server.port=" + port,
                "--seckill.api.engine=netty-http", "--seckill.api.management-port=" + managementPort);
        ApiClient api = new ApiClient("http://127.0.0.1:" + port, "http://127.0.0.1:" + managementPort, null, null);
        try {
            // Tomcat (the operator's side) is up, not ready, while the routes are held...
            Answer readiness = await().atMost(Duration.ofSeconds(120)).pollInterval(Duration.ofMillis(200))
                    .ignoreExceptionsInstanceOf(UncheckedIOException.class)
                    .until(() -> api.get("/actuator/health/readiness"), answer -> answer != null);
            assertThat(readiness.status()).isEqualTo(503);
            // ...and the API's port takes no connection: no buyer hears a wrong answer.
            assertThatThrownBy(() -> api.order(1, 7)).isInstanceOf(UncheckedIOException.class)
                    .hasCauseInstanceOf(ConnectException.class);
        } finally {
            routesMayStart.countDown();
        }
        assertServesOnceStarted(started, api);
    }

    private CompletableFuture<ConfigurableApplicationContext> start(CountDownLatch routesMayStart,
            String... settings) {
        List<String> arguments = new ArrayList<>(List.of(settings));
        arguments.addAll(SharedEmbeddedRedis.arguments(embeddedRedis));
        arguments.addAll(List.of("--spring.jmx.enabled=false",
                "--spring.datasource.url=" + dataSource.getUrl(),
                "--seckill.stream.consumer-name=starting-instance"));
        return CompletableFuture.supplyAsync(() -> new SpringApplicationBuilder(Application.class)
                .profiles("test")
                .initializers(context -> context.getBeanFactory().registerSingleton("holdRoutes",
                        new HoldRoutes(routesMayStart)))
                .run(arguments.toArray(String[]::new)));
    }

    private static void assertServesOnceStarted(CompletableFuture<ConfigurableApplicationContext> started,
            ApiClient api) throws Exception {
        try (ConfigurableApplicationContext context = started.get(120, TimeUnit.SECONDS)) {
            Answer running = api.order(Long.MAX_VALUE, 7);
            assertThat(running.status()).as(running.body()).isEqualTo(404);
            assertThat(running.code()).isEqualTo("VOUCHER_NOT_FOUND");
        }
    }

    private static void assertUnavailable(Answer answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
        assertThat(answer.header("Content-Type")).startsWith(Problem.MEDIA_TYPE);
        assertThat(answer.code()).isEqualTo("UNAVAILABLE");
        assertThat(answer.json().get("detail").asText()).contains("starting");
        assertThat(answer.header("Retry-After")).isEqualTo("1");
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Keeps Camel from starting its routes (Tomcat is up by then) until the latch opens. */
    private record HoldRoutes(CountDownLatch routesMayStart) implements CamelContextConfiguration {

        @Override
        public void beforeApplicationStart(CamelContext camelContext) {
            try {
                if (!routesMayStart.await(3, TimeUnit.MINUTES)) {
                    throw new IllegalStateException("The test never let the routes start");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }

        @Override
        public void afterApplicationStart(CamelContext camelContext) {
            // nothing
        }
    }
}
