package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.ApiClient;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.spi.CamelEvent.ExchangeCompletedEvent;
import org.apache.camel.support.EventNotifierSupport;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.RedisCallback;

/**
 * Each outcome of {@code POST /api/vouchers/{id}/orders}, as the contract names it, and who may read an order
 * ({@code GET /api/orders/{orderId}}).
 */
@SeckillIntegrationTest
class OrderApiIntegrationTests {

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    RedisKeys keys;

    @Autowired
    CamelContext camel;

    /**
     * The writer drains the stream (XACK + XDEL) in the background: a snapshot taken while an earlier order is
     * still in it would see that order move, not this test's request.
     */
    private void awaitOrdersWritten() {
        await().atMost(Duration.ofSeconds(30)).until(() -> keys.orderStreams().stream()
                .allMatch(stream -> Long.valueOf(0).equals(stores.redis().opsForStream().size(stream)))); // XLEN
    }

    @Test
    void acceptedOrderIsQueuedThenReadableFromTheDatabase() {
        long voucher = api.createVoucher(5);

        Answer accepted = api.order(voucher, 7);

        assertThat(accepted.status()).isEqualTo(202);
        assertThat(accepted.json().get("status").asText()).isEqualTo("QUEUED");
        assertThat(accepted.json().get("orderId").isTextual()).isTrue();
        assertThat(accepted.json().get("voucherId").asLong()).isEqualTo(voucher);
        assertThat(accepted.json().get("userId").asLong()).isEqualTo(7);
        String orderId = accepted.json().get("orderId").asText();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            Answer order = api.getOrder(orderId, 7);
            assertThat(order.status()).isEqualTo(200);
            assertThat(order.json().get("status").asText()).isEqualTo("CREATED");
            assertThat(order.json().get("userId").asLong()).isEqualTo(7);
        });
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(4);
    }

    /** As curl -X POST and wrk send it: no body and no Content-Length, which HTTP/1.1 reads as an empty body. */
    @Test
    void anOrderRequestWithoutContentLengthIsAccepted() {
        long voucher = api.createVoucher(2);

        Answer accepted = api.raw("POST /api/vouchers/" + voucher + "/orders HTTP/1.1\r\nHost: localhost\r\n"
                + "X-User-Id: 11\r\nConnection: close\r\n\r\n");

        assertThat(accepted.status()).isEqualTo(202);
        assertThat(accepted.json().get("userId").asLong()).isEqualTo(11);
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(1);
    }

    /**
     * An answer carries its own headers, not the request's (io.seckill.api.AnswerHeaders), and keeps the request's
     * word on the connection: a refusal asked to close it closes it.
     */
    @Test
    void aRefusalAskedToCloseTheConnectionClosesIt() {
        long voucher = api.createVoucher(2);
        api.orderAccepted(voucher, 12);

        Answer refused = api.raw("POST /api/vouchers/" + voucher + "/orders HTTP/1.1\r\nHost: localhost\r\n"
                + "X-User-Id: 12\r\nX-Request-Note: hello\r\nConnection: close\r\n\r\n");

        assertThat(refused.status()).isEqualTo(409);
        assertThat(refused.json().get("code").asText()).isEqualTo("ALREADY_ORDERED");
        assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        assertThat(refused.header("X-Request-Note")).isNull();
        assertThat(refused.header("X-User-Id")).isNull();
    }

    /**
     * The 202 is made on a message of its own (io.seckill.api.OrderPlacement): none of the request's headers is
     * carried into the answer's message, for Camel to copy and the engine's binding to drop, whatever they are.
     */
    @Test
    void theAcceptedAnswersMessageHoldsTheAnswersHeadersOnly() throws Exception {
        long voucher = api.createVoucher(2);
        List<Map<String, Object>> answered = new CopyOnWriteArrayList<>();
        EventNotifierSupport completions = new EventNotifierSupport() {
            @Override
            public void notify(CamelEvent event) {
                if (event instanceof ExchangeCompletedEvent completed
                        && "api-post-order".equals(completed.getExchange().getFromRouteId())) {
                    // A copy: a header's value may be null (the query of a request without one)
                    answered.add(new HashMap<>(completed.getExchange().getMessage().getHeaders()));
                }
            }
        };
        completions.start();
        camel.getManagementStrategy().addEventNotifier(completions);
        try {
            Answer accepted = api.raw("POST /api/vouchers/" + voucher + "/orders HTTP/1.1\r\nHost: localhost\r\n"
                    + "X-User-Id: 13\r\nX-Request-Note: hello\r\nConnection: close\r\n\r\n");

            assertThat(accepted.status()).isEqualTo(202);
            assertThat(accepted.header("Connection")).isEqualToIgnoringCase("close");
            await().atMost(Duration.ofSeconds(10)).until(() -> !answered.isEmpty());
            assertThat(answered).singleElement().asInstanceOf(InstanceOfAssertFactories.MAP)
                    .containsEntry(Exchange.HTTP_RESPONSE_CODE, 202)
                    .doesNotContainKeys("X-Request-Note", "X-User-Id", "Host", Exchange.HTTP_URI, "id");
        } finally {
            camel.getManagementStrategy().removeEventNotifier(completions);
            completions.stop();
        }
    }

    /** A body of unknown length (chunked, no Content-Length) is read whole, not taken for an empty one. */
    @Test
    void aChunkedVoucherBodyIsReadWhole() {
        String body = "{\"title\":\"chunked\",\"stock\":3}";

        Answer created = api.raw("POST /api/vouchers HTTP/1.1\r\nHost: localhost\r\n"
                + "Authorization: " + api.asOperator().authorization() + "\r\n"
                + "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
                + Integer.toHexString(body.length()) + "\r\n" + body + "\r\n0\r\n\r\n");

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.json().get("title").asText()).isEqualTo("chunked");
        long voucher = created.json().get("id").asLong();
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(3);
    }

    @Test
    void anOrderAfterRedisForgotItsScriptsIsAccepted() {
        // As after a restart of Redis: EVALSHA answers NOSCRIPT, and the admission falls back to EVAL.
        long voucher = api.createVoucher(2);
        stores.redis().execute((RedisCallback<String>) connection -> {
            connection.scriptingCommands().scriptFlush(); // SCRIPT FLUSH
            return null;
        });

        Answer accepted = api.order(voucher, 3);

        assertThat(accepted.status()).isEqualTo(202);
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(1);
    }

    @Test
    void secondOrderOfOneBuyerIsAlreadyOrderedAndChangesNothing() {
        long voucher = api.createVoucher(5);
        assertThat(api.order(voucher, 1).status()).isEqualTo(202);
        awaitOrdersWritten();
        Stores.Snapshot before = stores.snapshot();

        Answer again = api.order(voucher, 1);

        assertThat(again.status()).isEqualTo(409);
        assertThat(again.code()).isEqualTo("ALREADY_ORDERED");
        assertThat(again.header("Content-Type")).startsWith("application/problem+json");
        assertThat(stores.snapshot().redis()).isEqualTo(before.redis());
    }

    @Test
    void orderBeyondTheStockIsSoldOut() {
        long voucher = api.createVoucher(1);
        assertThat(api.order(voucher, 1).status()).isEqualTo(202);
        awaitOrdersWritten();
        Stores.Snapshot before = stores.snapshot();

        Answer late = api.order(voucher, 2);

        assertThat(late.status()).isEqualTo(409);
        assertThat(late.code()).isEqualTo("SOLD_OUT");
        assertThat(stores.snapshot().redis()).isEqualTo(before.redis());
    }

    @Test
    void unknownVoucherIsNotFound() {
        awaitOrdersWritten();
        Stores.Snapshot before = stores.snapshot();

        Answer answer = api.order(987654321L, 1);

        assertThat(answer.status()).isEqualTo(404);
        assertThat(answer.code()).isEqualTo("VOUCHER_NOT_FOUND");
        assertThat(stores.snapshot()).isEqualTo(before);
    }

    @Test
    void saleNotStartedAndSaleEndedAreConflicts() {
        Instant now = Instant.now();
        long future = api.createVoucher("{\"title\":\"Later\",\"stock\":3,\"beginAt\":\"" + now.plusSeconds(3600)
                + "\"}").json().get("id").asLong();
        long past = api.createVoucher("{\"title\":\"Gone\",\"stock\":3,\"beginAt\":\"" + now.minusSeconds(7200)
                + "\",\"endAt\":\"" + now.minusSeconds(3600) + "\"}").json().get("id").asLong();
        awaitOrdersWritten();
        Stores.Snapshot before = stores.snapshot();

        Answer early = api.order(future, 1);
        Answer late = api.order(past, 1);

        assertThat(early.status()).isEqualTo(409);
        assertThat(early.code()).isEqualTo("NOT_STARTED");
        assertThat(late.status()).isEqualTo(409);
        assertThat(late.code()).isEqualTo("ENDED");
        assertThat(stores.snapshot()).isEqualTo(before);
    }

    @Test
    void badBuyerIdIsBadRequest() {
        long voucher = api.createVoucher(3);
        awaitOrdersWritten();
        Stores.Snapshot before = stores.snapshot();

        for (String userId : new String[] {null, "", "abc", "0", "-5", "1.5", "99999999999999999999"}) {
            Answer answer = api.order(voucher, userId);
            assertThat(answer.status()).as("X-User-Id %s", userId).isEqualTo(400);
            assertThat(answer.code()).isEqualTo("BAD_REQUEST");
            assertThat(answer.body()).doesNotContain("Exception", "\tat ");
        }
        assertThat(stores.snapshot()).isEqualTo(before);
    }

    /**
     * The gateway sets the X-User-Id header; Camel's HTTP consumers also put query and form parameters among the
     * message's headers, where a parameter of that name would pass for it. It is the client's own say: no buyer.
     */
    @Test
    void aBuyerInTheQueryStringOrAFormIsNoBuyer() {
        long voucher = api.createVoucher(3);
        awaitOrdersWritten();
        Stores.Snapshot before = stores.snapshot();
        String orders = "/api/vouchers/" + voucher + "/orders";

        Answer missing = api.order(voucher, null);
        for (String query : List.of("X-User-Id=77", "x-user-id=77")) {
            Answer answer = api.send(post(orders + "?" + query));
            assertThat(answer.status()).as(answer.body()).isEqualTo(400);
            assertThat(answer.body()).isEqualTo(missing.body());
        }
        // A form is answered as the same form without the buyer: 400 BAD_REQUEST on Tomcat; netty-http's gate
        // refuses any body but JSON on the API (415) before a route sees it.
        Answer formWithout = api.send(form(orders, "note=77"));
        Answer formWith = api.send(form(orders, "X-User-Id=77"));
        assertThat(formWith.status()).as(formWith.body()).isIn(400, 415);
        assertThat(formWith.body()).isEqualTo(formWithout.body());
        assertThat(stores.snapshot()).isEqualTo(before);
    }

    @Test
    void theHeaderIsTheBuyerWhateverTheQueryStringSays() {
        long voucher = api.createVoucher(3);

        Answer accepted = api.send(post("/api/vouchers/" + voucher + "/orders?X-User-Id=78").header("X-User-Id", "77"));

        assertThat(accepted.status()).as(accepted.body()).isEqualTo(202);
        assertThat(accepted.json().get("userId").asLong()).isEqualTo(77);
        assertThat(stores.redis().opsForSet().members(keys.buyers(voucher))).containsExactly("77"); // SMEMBERS
    }

    /**
     * Order ids are roughly sequential: another buyer's order must read exactly as an order that does not exist,
     * here the same id before it was written (status, headers and body, byte for byte).
     */
    @Test
    void anOrderIsReadByItsOwnBuyerOnly() throws Exception {
        long voucher = api.createVoucher(2);
        String orderId;
        Answer unknown;
        camel.getRouteController().stopRoute("order-writer");
        try {
            orderId = api.orderAccepted(voucher, 7).get(0);
            unknown = api.getOrder(orderId, 8);
        } finally {
            camel.getRouteController().startRoute("order-writer");
        }
        assertThat(unknown.status()).isEqualTo(404);
        assertThat(unknown.code()).isEqualTo("ORDER_NOT_FOUND");
        await().atMost(Duration.ofSeconds(10)).until(() -> api.getOrder(orderId, 7).status() == 200);

        Answer own = api.getOrder(orderId, 7);
        Answer anothers = api.getOrder(orderId, 8);
        Answer anonymous = api.getOrder(orderId, (String) null);

        assertThat(own.json().get("userId").asLong()).isEqualTo(7);
        assertThat(own.json().get("voucherId").asLong()).isEqualTo(voucher);
        assertThat(anothers.status()).isEqualTo(404);
        assertThat(anothers.body()).isEqualTo(unknown.body());
        assertThat(withoutDate(anothers.headers())).isEqualTo(withoutDate(unknown.headers()));
        assertThat(anonymous.status()).isEqualTo(400);
        assertThat(anonymous.code()).isEqualTo("BAD_REQUEST");
        assertThat(anonymous.json().get("detail").asText()).contains("X-User-Id");
        assertThat(anonymous.body()).doesNotContain("\"voucherId\"", "\"userId\"");
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create(api.base() + path));
    }

    private HttpRequest.Builder post(String path) {
        return request(path).POST(HttpRequest.BodyPublishers.noBody());
    }

    private HttpRequest.Builder form(String path, String fields) {
        return request(path).header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString(fields));
    }

    private static Map<String, List<String>> withoutDate(Map<String, List<String>> headers) {
        Map<String, List<String>> kept = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        kept.putAll(headers);
        kept.remove("date");
        return kept;
    }

    /** The writer drains the stream on its own: compare snapshots only once it is done (row in, entry acked). */
}
