package io.seckill.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The warm-up's connections come and go as buyers' do, against an HTTP server that notes each connection's life. */
class WarmUpLoadTests {

    /** What the server saw of one connection. */
    private static final class Connection {
        volatile int requests;
        /** Its last request asked the server to close it. */
        volatile boolean askedToClose;
        /** It was closed (by either side). */
        volatile boolean closed;
    }

    private final EventLoopGroup serverLoop = new NioEventLoopGroup(1);
    private final List<Connection> connections = new CopyOnWriteArrayList<>();

    @AfterEach
    void stopServer() {
        serverLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    @Test
    void eachConnectionEndsAfterAHundredRequestsEveryOtherOneClosedByTheServer() throws Exception {
        int port = startServer();
        try (WarmUpLoad load = new WarmUpLoad(n -> WarmUpLoad.post("127.0.0.1:" + port, "/api/vouchers/1/orders",
                Map.of("X-User-Id", Long.toString(n))))) {
            load.start("127.0.0.1", port, 4);
            await().atMost(Duration.ofSeconds(30)).until(() -> load.answered() >= 2_000);
            load.stop(10, TimeUnit.SECONDS);

            assertThat(load.unexpected()).isEmpty();
            assertThat(load.opened()).isEqualTo(connections.size()).isGreaterThanOrEqualTo(2_000 / 100);
        }
        assertThat(connections).allSatisfy(connection -> assertThat(connection.requests)
                .isLessThanOrEqualTo(WarmUpLoad.REQUESTS_PER_CONNECTION));
        List<Connection> ended = connections.stream()
                .filter(connection -> connection.requests == WarmUpLoad.REQUESTS_PER_CONNECTION).toList();
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> assertThat(ended)
                .allSatisfy(connection -> assertThat(connection.closed).isTrue()));
        long byServer = ended.stream().filter(connection -> connection.askedToClose).count();
        long byClient = ended.size() - byServer;
        assertThat(byServer).isPositive();
        assertThat(byClient).isPositive();
        assertThat(Math.abs(byServer - byClient)).isLessThanOrEqualTo(4);
    }

    /** An HTTP server answering every request 202, closing the connection when the request asks it to. */
    private int startServer() throws InterruptedException {
        Channel server = new ServerBootstrap().group(serverLoop).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        Connection connection = new Connection();
                        connections.add(connection);
                        channel.closeFuture().addListener(closed -> connection.closed = true);
                        channel.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(1024),
                                new SimpleChannelInboundHandler<FullHttpRequest>() {
                                    @Override
                                    protected void channelRead0(ChannelHandlerContext context,
                                            FullHttpRequest request) {
                                        connection.requests++;
                                        boolean close = !HttpUtil.isKeepAlive(request);
                                        connection.askedToClose = close;
                                        FullHttpResponse answer = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1,
                                                HttpResponseStatus.ACCEPTED);
                                        answer.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, 0);
                                        if (close) {
                                            answer.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                                            context.writeAndFlush(answer).addListener(ChannelFutureListener.CLOSE);
                                        } else {
                                            context.writeAndFlush(answer);
                                        }
                                    }
                                });
                    }
                }).bind("127.0.0.1", 0).sync().channel();
        return ((InetSocketAddress) server.localAddress()).getPort();
    }
}
