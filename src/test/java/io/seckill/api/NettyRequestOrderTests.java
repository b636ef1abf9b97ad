package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpContent;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Pipelined requests reach the routes one at a time, on a channel of their own: HTTP clients here cannot pipeline. */
class NettyRequestOrderTests {

    private final EmbeddedChannel channel = new EmbeddedChannel(new NettyRequestOrder.Factory().newChannelHandler());

    @Test
    void aRequestArrivingWhileAnEarlierOneAwaitsItsAnswerIsHeldInItsPartsUntilThatAnswerIsWritten() {
        HttpRequest first = request("/api/vouchers/1/orders");
        channel.writeInbound(first, LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(passed()).containsExactly(first, LastHttpContent.EMPTY_LAST_CONTENT);

        HttpRequest second = request("/api/vouchers/2/orders");
        DefaultHttpContent part = new DefaultHttpContent(Unpooled.EMPTY_BUFFER);
        HttpRequest third = request("/api/vouchers/3/orders");
        channel.writeInbound(second, part, LastHttpContent.EMPTY_LAST_CONTENT, third);
        assertThat(passed()).as("held").isEmpty();

        // An interim 100 Continue is no answer; the first's answer lets the second through, and only the second.
        answer(HttpResponseStatus.CONTINUE);
        assertThat(passed()).isEmpty();
        answer(HttpResponseStatus.ACCEPTED);
        assertThat(passed()).containsExactly(second, part, LastHttpContent.EMPTY_LAST_CONTENT);

        answer(HttpResponseStatus.CONFLICT);
        assertThat(passed()).as("its head; its last content has not arrived yet").containsExactly(third);
        LastHttpContent end = new DefaultLastHttpContent();
        channel.writeInbound(end);
        assertThat(passed()).as("no longer held: nothing before it awaits an answer").containsExactly(end);
        channel.finishAndReleaseAll();
    }

    @Test
    void aRequestAnsweredBeforeItArrivedWholeLeavesNothingWaiting() {
        HttpRequest tooLarge = request("/api/vouchers");
        channel.writeInbound(tooLarge);
        // The aggregator answers 413 on the head and drops the body as it comes.
        answer(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE);
        channel.writeInbound(new DefaultLastHttpContent());
        passed();

        HttpRequest next = request("/api/vouchers/1/orders");
        channel.writeInbound(next, LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(passed()).containsExactly(next, LastHttpContent.EMPTY_LAST_CONTENT);
        channel.finishAndReleaseAll();
    }

    private void answer(HttpResponseStatus status) {
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status));
        channel.runPendingTasks();
        channel.outboundMessages().clear();
    }

    private List<Object> passed() {
        List<Object> passed = new ArrayList<>();
        for (Object msg = channel.readInbound(); msg != null; msg = channel.readInbound()) {
            passed.add(msg);
        }
        return passed;
    }

    private static HttpRequest request(String path) {
        return new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, path);
    }
}
