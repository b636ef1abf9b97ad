package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.util.unit.DataSize;

/** The bound on pipelined requests, on a channel of its own: HTTP clients here cannot pipeline. */
class NettyConnectionLimitsTests {

    private static final int MAX_PIPELINED = 3;

    private final NettyConnectionLimits.Factory limits = new NettyConnectionLimits.Factory(
            new ApiProperties(DataSize.ofKilobytes(16), Duration.ofSeconds(10), Duration.ofSeconds(30), 100,
                    MAX_PIPELINED, ApiProperties.Engine.NETTY_HTTP, 0, 0),
            new EngineProblemWriter(new ObjectMapper()));

    @Test
    void aConnectionWithAsManyRequestsUnansweredAsAllowedIsNotReadUntilAnAnswerGoesOut() {
        EmbeddedChannel channel = new EmbeddedChannel(limits.newChannelHandler());
        for (int i = 0; i < MAX_PIPELINED - 1; i++) {
            request(channel);
        }
        assertThat(channel.config().isAutoRead()).isTrue();

        request(channel);
        assertThat(channel.config().isAutoRead()).as("at the limit").isFalse();

        // An interim 100 Continue and the head of a response are no answer yet; its last content is.
        channel.writeOutbound(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
        channel.writeOutbound(new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK));
        assertThat(channel.config().isAutoRead()).isFalse();
        channel.writeOutbound(LastHttpContent.EMPTY_LAST_CONTENT);
        assertThat(channel.config().isAutoRead()).isTrue();
        channel.finishAndReleaseAll();
    }

    private static void request(EmbeddedChannel channel) {
        channel.writeInbound(new DefaultHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.GET, "/api-doc"));
        channel.writeInbound(LastHttpContent.EMPTY_LAST_CONTENT);
    }
}
