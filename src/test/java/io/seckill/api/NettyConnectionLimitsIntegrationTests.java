package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.OnNettyEngine;
import io.seckill.support.SeckillIntegrationTest;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * What one client may hold of the Netty engine ({@link NettyConnectionLimits}), on small limits: 20 connections,
 * 2 s to send the next request whole. The body deadline is {@link MalformedRequestIntegrationTests}' (both engines).
 */
@SeckillIntegrationTest
@OnNettyEngine
@TestPropertySource(properties = {
    "seckill.api.max-connections=" + NettyConnectionLimitsIntegrationTests.MAX_CONNECTIONS,
    "seckill.api.idle-timeout=4s"})
class NettyConnectionLimitsIntegrationTests {

    static final int MAX_CONNECTIONS = 20;
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(4);
    private static final String GET_DOC = "GET /api-doc HTTP/1.1\r\nHost: localhost\r\n\r\n";

    @Autowired
    ApiClient api;

    @Test
    void aClientHoldingIdleConnectionsIsCutAtTheCapAndServedOnceItLetsGo() {
        List<Socket> held = new ArrayList<>();
        try {
            // All at once, well within the idle timeout. The test's own HttpClient may hold a connection or two.
            for (int i = 0; i < MAX_CONNECTIONS + 5; i++) {
                held.add(api.open(""));
            }
            // Well inside the idle timeout, so only the cap can close any. Which ones it closes depends on what else
            // the server holds as they come (the test's own HttpClient's connections, closed as they idle out), but
            // at most MAX_CONNECTIONS of them stay open, and the first one does.
            long deadline = System.nanoTime() + Duration.ofSeconds(2).toNanos();
            long closed = held.stream().filter(socket -> closedWithin(socket,
                    Duration.ofNanos(Math.max(Duration.ofMillis(50).toNanos(), deadline - System.nanoTime()))))
                    .count();
            assertThat(closed).as("closed beyond the cap").isGreaterThanOrEqualTo(held.size() - MAX_CONNECTIONS);
            assertThat(closedWithin(held.get(0), Duration.ofMillis(200))).as("within the cap").isFalse();
        } finally {
            held.forEach(NettyConnectionLimitsIntegrationTests::close);
        }
        // Closed connections are counted out (once the server has seen them close): a new one is served.
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() ->
                api.raw("GET /api-doc HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").status() == 200);
    }

    @Test
    void anIdleConnectionAndOneWhoseHeadersStopHalfwayAreClosedAtTheIdleTimeout() throws IOException {
        try (Socket idle = api.open(""); Socket halfway = api.open("GET /api-doc HTTP/1.1\r\nHo")) {
            long start = System.nanoTime();
            assertThat(closedWithin(idle, IDLE_TIMEOUT.plusSeconds(3))).isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(IDLE_TIMEOUT.minusMillis(500));
            assertThat(closedWithin(halfway, Duration.ofSeconds(1))).isTrue();
        }
    }

    @Test
    void aConnectionKeptAliveAfterItsAnswerIsClosedOnceIdle() throws IOException {
        try (Socket socket = api.open(GET_DOC)) {
            // The answer, then the connection idles until the server closes it (where the answer read ends).
            Answer answer = ApiClient.answerOn(socket);
            assertThat(answer.status()).isEqualTo(200);
            assertThat(answer.body()).contains("openapi");
        }
    }

    /** Whether the server closes the connection (read hits its end) within the time; what it sent is skipped. */
    private static boolean closedWithin(Socket socket, Duration time) {
        try {
            socket.setSoTimeout((int) time.toMillis());
            long until = System.nanoTime() + time.toNanos();
            byte[] buffer = new byte[8192];
            while (System.nanoTime() < until) {
                if (socket.getInputStream().read(buffer) < 0) {
                    return true;
                }
            }
            return false;
        } catch (SocketTimeoutException stillOpen) {
            return false;
        } catch (IOException reset) {
            return true;
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
