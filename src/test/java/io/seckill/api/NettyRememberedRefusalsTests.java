package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.seckill.refusal.Reason;
import io.seckill.refusal.Refusal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The Netty engine's refusals from memory, on a channel of their own: what is answered before the routes and what
 * goes on to them.
 */
class NettyRememberedRefusalsTests {

    private static final long SOLD_OUT = 7;
    private static final String SOLD_OUT_ORDERS = "/api/vouchers/7/orders";

    private final ObjectMapper json = new ObjectMapper();
    private final WarmUpRequests warmUps = new WarmUpRequests();
    /** Every question put to the memory: voucher, buyer, warm-up. */
    private final List<String> asked = new ArrayList<>();
    private final NettyRememberedRefusals.Factory refusals = new NettyRememberedRefusals.Factory(
            (voucherId, userId, warmUp, path) -> {
                asked.add(voucherId + "/" + userId + "/" + warmUp);
                Refusal soldOut = new Refusal(Reason.SOLD_OUT, "Voucher " + voucherId + " is sold out");
                return voucherId == SOLD_OUT || voucherId == WarmUpRequests.SOLD_OUT
                        ? ProblemResponses.problem(soldOut, path)
                        : null;
            }, warmUps, new EngineProblemWriter(json));

    @Test
    void anOrderTheMemoryRefusesIsAnsweredWithoutReachingTheRoutesAndTheConnectionStaysOpen() throws Exception {
        EmbeddedChannel channel = new EmbeddedChannel(refusals.newChannelHandler());

        channel.writeInbound(order(SOLD_OUT_ORDERS + "?from=test", "42"), LastHttpContent.EMPTY_LAST_CONTENT);

        assertThat((Object) channel.readInbound()).as("passed on to the routes").isNull();
        FullHttpResponse answer = channel.readOutbound();
        assertThat(answer.status().code()).isEqualTo(409);
        assertThat(answer.headers().get(HttpHeaderNames.CONTENT_TYPE)).isEqualTo("application/problem+json");
        assertThat(answer.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("keep-alive");
        String body = answer.content().toString(StandardCharsets.UTF_8);
        assertThat(answer.headers().getInt(HttpHeaderNames.CONTENT_LENGTH))
                .isEqualTo(body.getBytes(StandardCharsets.UTF_8).length);
        JsonNode problem = json.readTree(body);
        assertThat(problem.get("code").asText()).isEqualTo("SOLD_OUT");
        assertThat(problem.get("status").asInt()).isEqualTo(409);
        assertThat(problem.get("instance").asText()).as("the path, without the query").isEqualTo(SOLD_OUT_ORDERS);
        assertThat(asked).containsExactly("7/42/false");
        assertThat(channel.isOpen()).isTrue();
        answer.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void aRequestThatAsksToCloseIsAnsweredAndClosed() {
        EmbeddedChannel channel = new EmbeddedChannel(refusals.newChannelHandler());
        HttpRequest request = order(SOLD_OUT_ORDERS, "42");
        request.headers().set(HttpHeaderNames.CONNECTION, "close");

        channel.writeInbound(request, LastHttpContent.EMPTY_LAST_CONTENT);

        FullHttpResponse answer = channel.readOutbound();
        assertThat(answer.headers().get(HttpHeaderNames.CONNECTION)).isEqualTo("close");
        assertThat(channel.isOpen()).isFalse();
        answer.release();
    }

    @Test
    void whatTheMemoryCannotRefuseGoesOnToTheRoutesWhole() {
        EmbeddedChannel channel = new EmbeddedChannel(refusals.newChannelHandler());

        channel.writeInbound(order("/api/vouchers/8/orders", "42"), LastHttpContent.EMPTY_LAST_CONTENT);

        assertThat((Object) channel.readInbound()).isInstanceOf(HttpRequest.class);
        assertThat((Object) channel.readInbound()).isInstanceOf(LastHttpContent.class);
        assertThat((Object) channel.readOutbound()).isNull();
        assertThat(asked).containsExactly("8/42/false");
        channel.finishAndReleaseAll();
    }

    @Test
    void whatIsNotAWellFormedOrderWithoutABodyIsLeftToTheRoutesWithoutAskingTheMemory() {
        List<HttpRequest> requests = new ArrayList<>(List.of(
                order(SOLD_OUT_ORDERS, "0"),
                order(SOLD_OUT_ORDERS, "+42"),
                order(SOLD_OUT_ORDERS, null),
                order("/api/vouchers/x7/orders", "42"),
                order("/api/vouchers/99999999999999999999/orders", "42"),
                order("/api/vouchers//orders", "42"),
                order("/api/vouchers/7/orders/", "42"),
                order("/api/vouchers/7/order", "42"),
                new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, SOLD_OUT_ORDERS)));
        HttpRequest twoBuyers = order(SOLD_OUT_ORDERS, "42");
        twoBuyers.headers().add(BuyerIdentity.HEADER, "43");
        requests.add(twoBuyers);
        HttpRequest withBody = order(SOLD_OUT_ORDERS, "42");
        withBody.headers().set(HttpHeaderNames.CONTENT_LENGTH, 2);
        requests.add(withBody);

        for (HttpRequest request : requests) {
            EmbeddedChannel channel = new EmbeddedChannel(refusals.newChannelHandler());
            channel.writeInbound(request, LastHttpContent.EMPTY_LAST_CONTENT);
            assertThat((Object) channel.readInbound())
                    .as(request.method() + " " + request.uri() + " " + request.headers()).isSameAs(request);
            assertThat((Object) channel.readOutbound()).isNull();
            channel.finishAndReleaseAll();
        }
        assertThat(asked).isEmpty();
    }

    @Test
    void aRequestArrivingInPiecesIsAnsweredOnceWhole() {
        EmbeddedChannel channel = new EmbeddedChannel(refusals.newChannelHandler());

        channel.writeInbound(order(SOLD_OUT_ORDERS, "42"));
        assertThat((Object) channel.readOutbound()).isNull();
        channel.writeInbound(LastHttpContent.EMPTY_LAST_CONTENT);

        assertThat((Object) channel.readInbound()).isNull();
        FullHttpResponse answer = channel.readOutbound();
        assertThat(answer.status().code()).isEqualTo(409);
        answer.release();
        channel.finishAndReleaseAll();
    }

    @Test
    void theWarmUpsOrdersAreToldApartByItsVouchersAndToken() {
        EmbeddedChannel channel = new EmbeddedChannel(refusals.newChannelHandler());
        HttpRequest warmUp = order("/api/vouchers/" + WarmUpRequests.SOLD_OUT + "/orders", "42");
        warmUp.headers().set(WarmUpRequests.HEADER, warmUps.token());
        HttpRequest notTheWarmUp = order("/api/vouchers/" + WarmUpRequests.SOLD_OUT + "/orders", "42");
        notTheWarmUp.headers().set(WarmUpRequests.HEADER, "guessed");
        HttpRequest notItsVoucher = order(SOLD_OUT_ORDERS, "42");
        notItsVoucher.headers().set(WarmUpRequests.HEADER, warmUps.token());

        for (HttpRequest request : List.of(warmUp, notTheWarmUp, notItsVoucher)) {
            channel.writeInbound(request, LastHttpContent.EMPTY_LAST_CONTENT);
            FullHttpResponse answer = channel.readOutbound();
            answer.release();
        }

        assertThat(asked).containsExactly(WarmUpRequests.SOLD_OUT + "/42/true", WarmUpRequests.SOLD_OUT + "/42/false",
                "7/42/false");
        channel.finishAndReleaseAll();
    }

    private static HttpRequest order(String path, String buyer) {
        HttpRequest request = new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, path);
        if (buyer != null) {
            request.headers().set(BuyerIdentity.HEADER, buyer);
        }
        return request;
    }
}
