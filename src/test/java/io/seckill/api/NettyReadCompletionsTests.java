package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.util.concurrent.DefaultEventExecutorGroup;
import io.netty.util.concurrent.EventExecutorGroup;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A pipeline built as Camel's netty-http builds it (HttpServerInitializerFactory): the decoders first, Camel's request
 * handler last under the name {@code handler}, on the route pool's executor or on the I/O thread.
 */
class NettyReadCompletionsTests {

    private final EventExecutorGroup routePool = new DefaultEventExecutorGroup(1);
    private final Recorder route = new Recorder();

    @AfterEach
    void stopRoutePool() {
        routePool.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void aRouteHandlerOnTheRoutePoolGetsEveryRequestButNoReadsCompletion() {
        EmbeddedChannel channel = channel(new NettyReadCompletions(), routePool);

        // EmbeddedChannel completes each read as the server's loop does: the request, then the read's completion.
        channel.writeInbound("first request");
        channel.writeInbound("second request");

        await().atMost(Duration.ofSeconds(5)).until(() -> route.events.size() >= 2);
        assertThat(route.events).containsExactly("read first request", "read second request");
        assertThat(channel.pipeline().names()).as("the stop right before Camel's handler; the decoder gone")
                .containsSubsequence(NettyReadCompletions.STOP, NettyReadCompletions.ROUTE_HANDLER)
                .doesNotContain("decoder-0");
        channel.finishAndReleaseAll();
    }

    /** What Netty does without the stop (netty#10067): the read's completion is handed to the route pool too. */
    @Test
    void withoutItTheRoutePoolGetsATaskForEachReadsCompletion() {
        EmbeddedChannel channel = channel(new ChannelInboundHandlerAdapter(), routePool);

        channel.writeInbound("first request");
        channel.writeInbound("second request");

        await().atMost(Duration.ofSeconds(5)).until(() -> route.events.size() >= 4);
        assertThat(route.events).containsExactly("read first request", "read complete", "read second request",
                "read complete");
        channel.finishAndReleaseAll();
    }

    @Test
    void aRouteHandlerOnTheIoThreadIsLeftAsItIs() {
        EmbeddedChannel channel = channel(new NettyReadCompletions(), null);

        channel.writeInbound("request");

        assertThat(route.events).as("as Netty delivers them there").containsExactly("read request", "read complete");
        assertThat(channel.pipeline().names()).doesNotContain(NettyReadCompletions.STOP, "decoder-0");
        channel.finishAndReleaseAll();
    }

    private EmbeddedChannel channel(ChannelHandler decoder, EventExecutorGroup routeExecutor) {
        return new EmbeddedChannel(new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel channel) {
                channel.pipeline().addLast("decoder-0", decoder);
                if (routeExecutor != null) {
                    channel.pipeline().addLast(routeExecutor, NettyReadCompletions.ROUTE_HANDLER, route);
                } else {
                    channel.pipeline().addLast(NettyReadCompletions.ROUTE_HANDLER, route);
                }
            }
        });
    }

    /** Camel's handler as Netty sees it: it reads requests and leaves a read's completion to the adapter's default. */
    @ChannelHandler.Sharable
    private static final class Recorder extends ChannelInboundHandlerAdapter {

        final List<String> events = new CopyOnWriteArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            events.add("read " + msg);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            events.add("read complete");
            ctx.fireChannelReadComplete();
        }
    }
}
