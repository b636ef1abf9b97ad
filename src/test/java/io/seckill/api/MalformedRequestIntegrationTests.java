package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.Stores;
import io.seckill.support.SeckillIntegrationTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpRequest.BodyPublishers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.camel.CamelContext;
import org.apache.camel.builder.RouteBuilder;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * Every endpoint, sent what it must refuse: each answer is problem+json with the right status and code, a detail
 * that names what is wrong, no internals, and Redis and the database exactly as they were. The rate limits are on
 * as shipped (the test profile has them off), so this also shows a refused request costs no rate-limit token: every
 * seckill:* key is compared. A context of its own, so no other test's buckets expire or orders drain meanwhile.
 */
@SeckillIntegrationTest
@TestPropertySource(properties = {"seckill.rate-limit.per-buyer.rate=5", "seckill.rate-limit.per-address.rate=2000",
    "seckill.api.body-deadline=" + MalformedRequestIntegrationTests.BODY_DEADLINE_SECONDS + "s"})
class MalformedRequestIntegrationTests {

    static final int BODY_DEADLINE_SECONDS = 3;
    private static final Duration DEADLINE = Duration.ofSeconds(BODY_DEADLINE_SECONDS);
    /** More than Tomcat's threads (server.tomcat.threads.max). */
    private static final int SLOW_CLIENTS = 100;

    private static final String JSON = "application/json";
    private static final String VALID_DATES = "\"beginAt\":\"2026-11-21T10:00:00Z\"";

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    CamelContext camel;

    /** A voucher on sale, so a refused order is refused for what is wrong with it, not for the voucher. */
    long voucher;

    /** Not in a @BeforeAll: the Camel context (and so the REST API) starts just before each test. */
    @BeforeEach
    void createVoucher() {
        voucher = api.createVoucher(10);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("malformedRequests")
    void isAnsweredWithAProblemAndChangesNothing(Malformed request) {
        Stores.Snapshot before = stores.snapshot();

        Answer answer = request.send().to(api, voucher);

        assertThat(answer.status()).as(answer.body()).isEqualTo(request.status());
        assertThat(answer.header("Content-Type")).startsWith(Problem.MEDIA_TYPE);
        JsonNode problem = answer.json();
        assertThat(problem.get("code").asText()).isEqualTo(request.code().name());
        assertThat(problem.get("status").asInt()).isEqualTo(request.status());
        assertThat(problem.get("title").asText()).isNotBlank();
        assertThat(problem.get("detail").asText()).isNotBlank().contains(request.detailNames());
        assertThat(answer.body()).doesNotContain("Exception", "\tat ", "io.seckill", "org.springframework",
                "org.apache", "java.", "<html");
        // SCAN seckill:*, HGETALL / SMEMBERS / XRANGE each key, and both tables
        assertThat(stores.snapshot()).isEqualTo(before);
    }

    @Test
    void exceptionThatEscapesEveryRouteIsStillAProblemWithoutInternals() throws Exception {
        // A route with no error handling of its own: what it throws reaches platform-http, which would answer 500
        // with an empty body. (The API's routes all use api-errors; this stands for a fault outside them.)
        camel.addRoutes(new RouteBuilder() {
            @Override
            public void configure() {
                rest("/api/test-faults").get().to("direct:test-fault");
                from("direct:test-fault").routeId("test-fault")
                        .throwException(new IllegalStateException("io.seckill internals at org.apache.Boom"));
            }
        });

        Answer answer = api.get("/api/test-faults");

        assertThat(answer.status()).isEqualTo(500);
        assertThat(answer.header("Content-Type")).startsWith(Problem.MEDIA_TYPE);
        assertThat(answer.code()).isEqualTo("INTERNAL_ERROR");
        assertThat(answer.body()).doesNotContain("Exception", "io.seckill", "org.apache", "Boom");
    }

    /**
     * A body sent a byte a second, among {@value #SLOW_CLIENTS} bodies that never come: none of them holds a thread
     * (the probes answer meanwhile), and each is answered 408 at the deadline, with nothing created.
     */
    @Test
    void aBodyTricklingInIsAnswered408AtTheDeadlineWhileTheProbesStillAnswer() throws Exception {
        Stores.Snapshot before = stores.snapshot();
        String head = "POST /api/vouchers HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
                + "Authorization: " + api.asOperator().authorization() + "\r\nContent-Length: 100\r\n\r\n{";
        List<Socket> held = new ArrayList<>();
        try {
            long start = System.nanoTime();
            for (int i = 0; i < SLOW_CLIENTS; i++) {
                held.add(api.open(head));
            }
            Socket trickling = held.get(0);
            Thread trickle = new Thread(() -> {
                try {
                    for (int i = 0; i < 60; i++) {
                        Thread.sleep(1000);
                        trickling.getOutputStream().write('x');
                    }
                } catch (IOException | InterruptedException answeredAndClosed) {
                    // the server has answered and closed the connection
                }
            });
            trickle.setDaemon(true);
            trickle.start();

            // On the API's own port: Tomcat's for platform-http, Netty's for netty-http.
            Answer readiness = api.send(HttpRequest.newBuilder(URI.create(api.base() + "/actuator/health/readiness"))
                    .GET());
            assertThat(readiness.status()).isEqualTo(200);
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(DEADLINE);

            Answer answer = ApiClient.answerOn(trickling);
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            assertThat(answer.status()).as(answer.body()).isEqualTo(408);
            assertThat(answer.header("Content-Type")).startsWith(Problem.MEDIA_TYPE);
            assertThat(answer.code()).isEqualTo("REQUEST_TIMEOUT");
            assertThat(took).isBetween(DEADLINE.minusMillis(500), DEADLINE.plusSeconds(3));
            // The ones that sent nothing more are cut too.
            assertThat(ApiClient.answerOn(held.get(SLOW_CLIENTS - 1)).status()).isEqualTo(408);
        } finally {
            for (Socket socket : held) {
                socket.close();
            }
        }
        assertThat(stores.snapshot()).isEqualTo(before);
    }

    static Stream<Malformed> malformedRequests() {
        return Stream.of(
                // POST /api/vouchers: the body
                bad("voucher body that is not JSON", voucherBody("{\"title\":"), "JSON"),
                bad("empty voucher body", voucherBody(""), "empty"),
                bad("voucher body that is an array", voucherBody("[1,2]"), "object"),
                bad("voucher body that is a string", voucherBody("\"voucher\""), "object"),
                bad("voucher body that is null", voucherBody("null"), "object"),
                bad("voucher body with a second value after it", voucherBody("{\"title\":\"a\",\"stock\":1} {}"),
                        "JSON"),
                bad("unknown field", voucherBody("{\"title\":\"a\",\"stock\":1,\"price\":3}"), "price"),
                bad("missing title", voucherBody("{\"stock\":1}"), "title"),
                bad("missing stock", voucherBody("{\"title\":\"a\"}"), "stock"),
                bad("empty title", voucherBody("{\"title\":\"\",\"stock\":1}"), "title"),
                bad("blank title", voucherBody("{\"title\":\"   \",\"stock\":1}"), "title"),
                bad("title of 201 characters", voucherBody("{\"title\":\"" + "x".repeat(201) + "\",\"stock\":1}"),
                        "title"),
                bad("title of 101 emoji, 202 UTF-16 units",
                        voucherBody("{\"title\":\"" + "\uD83D\uDE00".repeat(101) + "\",\"stock\":1}"), "title"),
                                bad("title that is a number", voucherBody("{\"title\":7,\"stock\":1}"), "title"),
                bad("stock 0", voucherBody("{\"title\":\"a\",\"stock\":0}"), "stock"),
                bad("negative stock", voucherBody("{\"title\":\"a\",\"stock\":-1}"), "stock"),
                bad("stock over 10,000,000", voucherBody("{\"title\":\"a\",\"stock\":10000001}"), "stock"),
                bad("fractional stock", voucherBody("{\"title\":\"a\",\"stock\":1.5}"), "stock"),
                bad("stock as a string", voucherBody("{\"title\":\"a\",\"stock\":\"10\"}"), "stock"),
                bad("stock beyond 64 bits", voucherBody("{\"title\":\"a\",\"stock\":123456789012345678901234567890}"),
                        "stock"),
                bad("endAt before beginAt", voucherBody("{\"title\":\"a\",\"stock\":1," + VALID_DATES
                        + ",\"endAt\":\"2026-11-21T09:00:00Z\"}"), "endAt"),
                bad("endAt equal to beginAt", voucherBody("{\"title\":\"a\",\"stock\":1," + VALID_DATES
                        + ",\"endAt\":\"2026-11-21T10:00:00Z\"}"), "endAt"),
                bad("unparseable beginAt", voucherBody("{\"title\":\"a\",\"stock\":1,\"beginAt\":\"tomorrow\"}"),
                        "beginAt"),
                bad("beginAt without an offset",
                        voucherBody("{\"title\":\"a\",\"stock\":1,\"beginAt\":\"2026-11-21T10:00:00\"}"), "beginAt"),
                bad("endAt that is a number", voucherBody("{\"title\":\"a\",\"stock\":1,\"endAt\":1763719200000}"),
                        "endAt"),
                bad("beginAt after the year 9999",
                        voucherBody("{\"title\":\"a\",\"stock\":1,\"beginAt\":\"+10000-01-01T00:00:00Z\"}"), "beginAt"),
                // POST /api/vouchers: the envelope
                problem("voucher body as text/plain", 415, ProblemCode.UNSUPPORTED_MEDIA_TYPE,
                        (api, v) -> api.send(request(api, "/api/vouchers").header("Content-Type", "text/plain")
                                .POST(BodyPublishers.ofString("{\"title\":\"a\",\"stock\":1}"))), "text/plain"),
                problem("voucher body without a Content-Type", 415, ProblemCode.UNSUPPORTED_MEDIA_TYPE,
                        (api, v) -> api.send(request(api, "/api/vouchers")
                                .POST(BodyPublishers.ofString("{\"title\":\"a\",\"stock\":1}"))), "Content-Type"),
                problem("voucher body over the size limit", 413, ProblemCode.PAYLOAD_TOO_LARGE,
                        (api, v) -> api.createVoucher(oversizedVoucher()), "limit"),
                problem("chunked voucher body over the size limit", 413, ProblemCode.PAYLOAD_TOO_LARGE,
                        (api, v) -> api.send(request(api, "/api/vouchers").header("Content-Type", JSON)
                                .POST(BodyPublishers.ofInputStream(
                                        () -> new ByteArrayInputStream(oversizedVoucher().getBytes())))), "limit"),
                notAllowed("PUT /api/vouchers", "PUT", "/api/vouchers"),
                notAllowed("DELETE /api/vouchers/{id}", "DELETE", "/api/vouchers/1"),
                // GET /api/vouchers/{id}
                bad("voucher id that is a word", get("/api/vouchers/abc"), "voucher id"),
                bad("voucher id 0", get("/api/vouchers/0"), "voucher id"),
                bad("negative voucher id", get("/api/vouchers/-1"), "voucher id"),
                bad("voucher id beyond 64 bits", get("/api/vouchers/9223372036854775808"), "voucher id"),
                bad("fractional voucher id", get("/api/vouchers/1.5"), "voucher id"),
                bad("voucher id with a sign", get("/api/vouchers/+1"), "voucher id"),
                problem("voucher asked for as HTML", 406, ProblemCode.NOT_ACCEPTABLE,
                        (api, v) -> api.send(request(api, "/api/vouchers/" + v).header("Accept", "text/html").GET()),
                        "Accept"),
                // POST /api/vouchers/{id}/orders
                bad("order without X-User-Id", (api, v) -> api.order(v, null), "X-User-Id"),
                bad("order with an empty X-User-Id", (api, v) -> api.order(v, ""), "X-User-Id"),
                bad("order with a word for X-User-Id", (api, v) -> api.order(v, "abc"), "X-User-Id"),
                bad("order with X-User-Id 0", (api, v) -> api.order(v, "0"), "X-User-Id"),
                bad("order with a negative X-User-Id", (api, v) -> api.order(v, "-5"), "X-User-Id"),
                bad("order with X-User-Id beyond 64 bits", (api, v) -> api.order(v, "99999999999999999999"),
                        "X-User-Id"),
                bad("order with a fractional X-User-Id", (api, v) -> api.order(v, "1.5"), "X-User-Id"),
                bad("order with two X-User-Id headers", (api, v) -> api.send(request(api, "/api/vouchers/" + v + "/orders")
                        .header("X-User-Id", "1").header("X-User-Id", "2").POST(BodyPublishers.noBody())), "X-User-Id"),
                bad("order with X-User-Id in the query string only", (api, v) -> api.send(request(api,
                        "/api/vouchers/" + v + "/orders?X-User-Id=7").POST(BodyPublishers.noBody())), "X-User-Id"),
                bad("order for a voucher id that is a word", (api, v) -> api.order("abc", "7"), "voucher id"),
                bad("order for voucher id 0", (api, v) -> api.order("0", "7"), "voucher id"),
                notAllowed("GET /api/vouchers/{id}/orders", "GET", "/api/vouchers/1/orders"),
                // GET /api/orders/{orderId}
                bad("order id that is a word", (api, v) -> api.getOrder("abc", "7"), "orderId"),
                bad("negative order id", (api, v) -> api.getOrder("-1", "7"), "orderId"),
                bad("order id beyond 64 bits", (api, v) -> api.getOrder("99999999999999999999", "7"), "orderId"),
                bad("order read without X-User-Id", (api, v) -> api.getOrder("1", null), "X-User-Id"),
                bad("order read with X-User-Id 0", (api, v) -> api.getOrder("1", "0"), "X-User-Id"),
                bad("order read with a word for X-User-Id", (api, v) -> api.getOrder("1", "abc"), "X-User-Id"),
                bad("order read with X-User-Id in the query string only", get("/api/orders/1?X-User-Id=7"),
                        "X-User-Id"),
                notAllowed("POST /api/orders/{orderId}", "POST", "/api/orders/1"),
                notAllowed("DELETE /api/orders/{orderId}", "DELETE", "/api/orders/1"),
                // POST /api/orders/{orderId}/payment
                bad("payment without X-User-Id", (api, v) -> api.pay("1", null), "X-User-Id"),
                bad("payment with X-User-Id 0", (api, v) -> api.pay("1", "0"), "X-User-Id"),
                bad("payment with a word for X-User-Id", (api, v) -> api.pay("1", "abc"), "X-User-Id"),
                bad("payment with X-User-Id in the query string only", (api, v) -> api.send(request(api,
                        "/api/orders/1/payment?X-User-Id=7").POST(BodyPublishers.noBody())), "X-User-Id"),
                bad("payment of an order id that is a word", (api, v) -> api.pay("abc", "7"), "orderId"),
                bad("payment of order id 0", (api, v) -> api.pay("0", "7"), "orderId"),
                notAllowed("GET /api/orders/{orderId}/payment", "GET", "/api/orders/1/payment"),
                // Paths that are not the API's
                notFound("unknown path", "/nothing"),
                notFound("/api alone", "/api"),
                notFound("path below a voucher", "/api/vouchers/1/nothing"),
                notFound("Spring Boot's error page", "/error"),
                problem("POST to an unknown path", 404, ProblemCode.NOT_FOUND,
                        (api, v) -> api.post("/api/nothing", "{}"), "/api/nothing"),
                // Requests Tomcat refuses before any servlet sees them
                raw("malformed percent-encoding", "GET /api/vouchers/%zz HTTP/1.1", 400),
                raw("unencoded brace in the path", "GET /api/vouchers/{id} HTTP/1.1", 400),
                raw("encoded slash in the path", "GET /api/vouchers/1%2F2 HTTP/1.1", 400),
                raw("garbage request line", "GARBAGE", 400),
                raw("header name with a space", "GET /api/vouchers/1 HTTP/1.1\r\nBad Header: x", 400),
                raw("header over Tomcat's size limit", "GET /api/vouchers/1 HTTP/1.1\r\nX-Big: " + "x".repeat(20_000),
                        400),
                raw("unknown transfer coding",
                        "POST /api/vouchers HTTP/1.1\r\nContent-Type: application/json\r\nTransfer-Encoding: zip", 501),
                raw("unknown HTTP version", "GET /api/vouchers/1 HTTP/9.9", 505),
                problem("TRACE", 405, ProblemCode.METHOD_NOT_ALLOWED,
                        (api, v) -> api.send(request(api, "/api/vouchers/1").method("TRACE", BodyPublishers.noBody())),
                        "TRACE"));
    }

    /** One malformed request and what it must be answered. */
    record Malformed(String name, int status, ProblemCode code, Send send, String detailNames) {

        @Override
        public String toString() {
            return name;
        }
    }

    @FunctionalInterface
    interface Send {
        Answer to(ApiClient api, long voucher);
    }

    private static Malformed problem(String name, int status, ProblemCode code, Send send, String detailNames) {
        return new Malformed(name, status, code, send, detailNames);
    }

    private static Malformed bad(String name, Send send, String detailNames) {
        return problem(name, 400, ProblemCode.BAD_REQUEST, send, detailNames);
    }

    private static Malformed notAllowed(String name, String method, String path) {
        return problem(name, 405, ProblemCode.METHOD_NOT_ALLOWED,
                (api, v) -> api.send(request(api, path).method(method, BodyPublishers.noBody())), method);
    }

    private static Malformed notFound(String name, String path) {
        return problem(name, 404, ProblemCode.NOT_FOUND, get(path), path);
    }

    /** Sent over a plain socket: HttpClient will not send these. */
    private static Malformed raw(String name, String requestHead, int status) {
        return problem(name, status, ProblemCode.BAD_REQUEST,
                (api, v) -> api.raw(requestHead + "\r\nHost: localhost\r\nConnection: close\r\n\r\n"), "");
    }

    private static Send voucherBody(String json) {
        return (api, v) -> api.createVoucher(json);
    }

    private static Send get(String path) {
        return (api, v) -> api.get(path);
    }

    private static HttpRequest.Builder request(ApiClient api, String path) {
        return HttpRequest.newBuilder(URI.create(api.base() + path));
    }

    /** A voucher whose title alone is over the 16KB of seckill.api.max-body-size. */
    private static String oversizedVoucher() {
        return "{\"title\":\"" + "x".repeat(17 * 1024) + "\",\"stock\":1}";
    }
}
