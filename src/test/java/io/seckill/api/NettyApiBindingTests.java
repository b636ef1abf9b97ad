package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBufUtil;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.component.netty.NettyConstants;
import org.apache.camel.component.netty.http.NettyHttpConfiguration;
import org.apache.camel.component.netty.http.RestNettyHttpBinding;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link NettyApiBinding} answers as Camel's own REST binding does with the same header filter, status, headers and
 * body alike, from a message carrying what a request's leaves on it (its headers, the path's parameters, Camel's
 * and Netty's own), and leaves the message as Camel's binding does.
 */
class NettyApiBindingTests {

    private final CamelContext camel = new DefaultCamelContext();
    private final ResponseHeaders filter = new ResponseHeaders();
    private final NettyHttpConfiguration configuration = new NettyHttpConfiguration();

    @BeforeEach
    void start() {
        camel.start();
    }

    @AfterEach
    void stop() {
        camel.stop();
    }

    @Test
    void anOrdersAnswerCarriesItsOwnHeadersOnly() throws Exception {
        Exchange exchange = answered(202, "application/json", "{\"orderId\":\"1\"}");

        assertSameAsCamels(exchange);
        HttpResponse answer = new NettyApiBinding(filter).toNettyResponse(exchange.getMessage(), configuration);
        assertThat(answer.headers().names()).containsExactlyInAnyOrder("content-length", "content-type", "connection");
        assertThat(answer.headers().get("Connection")).isEqualTo("keep-alive");
    }

    @Test
    void theHeadersAnAnswerMayCarryAreKept() throws Exception {
        Exchange created = answered(201, "application/json", "{\"id\":7}");
        created.getMessage().setHeader("Location", "/api/vouchers/7");
        Exchange limited = answered(429, "application/problem+json", "{\"code\":\"RATE_LIMITED\"}");
        limited.getMessage().setHeader("Retry-After", 3);
        Exchange notAllowed = answered(405, "application/problem+json", "{}");
        notAllowed.getMessage().setHeader("allow", List.of("GET", "HEAD"));

        assertSameAsCamels(created);
        assertSameAsCamels(limited);
        assertSameAsCamels(notAllowed);
        assertThat(new NettyApiBinding(filter).toNettyResponse(limited.getMessage(), configuration).headers()
                .get("Retry-After")).isEqualTo("3");
    }

    @Test
    void aRequestToCloseTheConnectionIsAnsweredAndMarkedAsCamelsIs() throws Exception {
        Exchange exchange = answered(202, "application/json", "{}");
        exchange.getMessage().setHeader("Connection", "close");

        HttpResponse answer = assertSameAsCamels(exchange);

        assertThat(answer.headers().get("Connection")).isEqualTo("close");
        assertThat(exchange.getMessage().getHeader(NettyConstants.NETTY_CLOSE_CHANNEL_WHEN_COMPLETE, Boolean.class))
                .isTrue();
    }

    @Test
    void aFailedExchangeIsAnsweredAsCamelsIs() throws Exception {
        Exchange exchange = answered(500, "application/json", "{}");
        exchange.setException(new IllegalStateException("a fault"));
        configuration.setMuteException(true);

        HttpResponse answer = assertSameAsCamels(exchange);

        assertThat(((FullHttpResponse) answer).status().code()).isEqualTo(500);
        assertThat(exchange.getMessage().getHeader("Content-Type")).isEqualTo("text/plain");
    }

    /** A message as a request to the API leaves it, with the route's answer set. */
    private Exchange answered(int status, String contentType, String body) {
        Exchange exchange = new DefaultExchange(camel);
        Map<String, Object> request = Map.of("Host", "127.0.0.1:8080", "User-Agent", "wrk", "X-User-Id", "42",
                "id", "7", "debug", "1", Exchange.HTTP_METHOD, "POST", Exchange.HTTP_URI, "/api/vouchers/7/orders",
                NettyConstants.NETTY_CHANNEL_HANDLER_CONTEXT, new Object(),
                NettyConstants.NETTY_REMOTE_ADDRESS, "/127.0.0.1:50000");
        exchange.getMessage().setHeaders(camel.getCamelContextExtension().getHeadersMapFactory().newMap(request));
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, status);
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, contentType);
        exchange.getMessage().setBody(body.getBytes(StandardCharsets.UTF_8));
        return exchange;
    }

    private static List<String> lines(HttpResponse answer) {
        return answer.headers().entries().stream().map(header -> header.getKey() + ": " + header.getValue()).toList();
    }

    /** The answer of both bindings to copies of the exchange, and the message after each, compared. */
    private HttpResponse assertSameAsCamels(Exchange exchange) throws Exception {
        Exchange forCamel = exchange.copy();
        HttpResponse camels = new RestNettyHttpBinding(filter).toNettyResponse(forCamel.getMessage(), configuration);
        HttpResponse ours = new NettyApiBinding(filter).toNettyResponse(exchange.getMessage(), configuration);

        assertThat(ours.status()).isEqualTo(camels.status());
        assertThat(lines(ours)).containsExactlyInAnyOrderElementsOf(lines(camels));
        assertThat(ByteBufUtil.getBytes(((FullHttpResponse) ours).content()))
                .isEqualTo(ByteBufUtil.getBytes(((FullHttpResponse) camels).content()));
        assertThat(exchange.getMessage().getHeaders()).isEqualTo(forCamel.getMessage().getHeaders());
        return ours;
    }
}
