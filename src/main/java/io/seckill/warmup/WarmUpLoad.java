package io.seckill.warmup;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;

/**
 * The warm-up's load: {@code connections} keep-alive HTTP/1.1 connections to the service's own API port, each sending
 * its next order request as soon as the last is answered, as a load generator in front of the service would. Each
 * connection ends after {@value #REQUESTS_PER_CONNECTION} requests, every other one closed by the server (its last
 * request says {@code Connection: close}) and the others by this client, and a new one is opened in its place (as it
 * is when the server closes one first, as Tomcat does after 100 requests): buyers' connections are new ones, and the
 * server's code compiled on a few connections opened before anything was compiled was thrown away when the first
 * buyers connected (bench/runs/2026-11-28-opening-deopts.md). On Netty's own event loop (one thread): the JDK's
 * HttpClient spent as much CPU as the service it was warming, and reached a fifth of the rate the service serves.
 */
final class WarmUpLoad implements AutoCloseable {

    private static final int MAX_ANSWER_BYTES = 64 * 1024;
    static final int REQUESTS_PER_CONNECTION = 100;

    private final EventLoopGroup loop = new NioEventLoopGroup(1);
    private final List<Channel> channels = new CopyOnWriteArrayList<>();
    private final AtomicLong sent = new AtomicLong();
    private final AtomicLong answered = new AtomicLong();
    private final AtomicLong opened = new AtomicLong();
    /** Requests whose connection closed before their answer. */
    private final AtomicLong lost = new AtomicLong();
    private Bootstrap bootstrap;
    private final Map<String, AtomicLong> unexpected = new ConcurrentHashMap<>();
    private final LongFunction<FullHttpRequest> request;
    private volatile boolean stopping;

    /** @param request the n-th request (n from 1), built on the event loop */
    WarmUpLoad(LongFunction<FullHttpRequest> request) {
        this.request = request;
    }

    /** A POST without a body to this path, with these headers besides Host and Content-Length. */
    static FullHttpRequest post(String host, String path, Map<String, String> headers) {
        FullHttpRequest post = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, path);
        post.headers().set(HttpHeaderNames.HOST, host).set(HttpHeaderNames.CONTENT_LENGTH, 0);
        headers.forEach(post.headers()::set);
        return post;
    }

    void start(String host, int port, int connections) throws InterruptedException {
        bootstrap = new Bootstrap().group(loop).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .remoteAddress(host, port)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel channel) {
                        channel.pipeline().addLast(new HttpClientCodec(), new HttpObjectAggregator(MAX_ANSWER_BYTES),
                                new Answers());
                    }
                });
        for (int i = 0; i < connections; i++) {
            bootstrap.connect().sync();
        }
    }

    long answered() {
        return answered.get();
    }

    long sent() {
        return sent.get();
    }

    /** Connections opened so far. */
    long opened() {
        return opened.get();
    }

    /** Answers that were neither 202 nor 409, by status. */
    Map<String, AtomicLong> unexpected() {
        return unexpected;
    }

    /** Sends no new request; returns once every one sent is answered, or after the timeout. */
    void stop(long timeout, TimeUnit unit) throws InterruptedException {
        stopping = true;
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        while (answered.get() + lost.get() < sent.get() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        if (lost.get() > 0) {
            unexpected.computeIfAbsent("unanswered, connection closed", k -> new AtomicLong()).addAndGet(lost.get());
        }
    }

    @Override
    public void close() {
        channels.forEach(Channel::close);
        loop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
    }

    /** One connection: a request at a time, the next once the last is answered. */
    private final class Answers extends SimpleChannelInboundHandler<FullHttpResponse> {

        private boolean awaiting;
        private int requests;
        /** Whether this connection's last request asks the server to close it, or this client closes it. */
        private boolean serverCloses;

        @Override
        public void channelActive(ChannelHandlerContext context) {
            serverCloses = opened.incrementAndGet() % 2 == 0;
            channels.add(context.channel());
            next(context);
        }

        @Override
        protected void channelRead0(ChannelHandlerContext context, FullHttpResponse answer) {
            awaiting = false;
            int status = answer.status().code();
            answered.incrementAndGet();
            if (status != 202 && status != 409) {
                unexpected.computeIfAbsent(Integer.toString(status), k -> new AtomicLong()).incrementAndGet();
            }
            if (HttpUtil.isKeepAlive(answer) && requests < REQUESTS_PER_CONNECTION) {
                next(context);
            } else {
                context.close(); // this connection's last answer: the next request goes on a new one
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext context) {
            channels.remove(context.channel());
            if (awaiting) {
                lost.incrementAndGet();
            }
            if (!stopping) {
                bootstrap.connect();
            }
        }

        private void next(ChannelHandlerContext context) {
            if (!stopping && context.channel().isActive()) {
                awaiting = true;
                FullHttpRequest next = request.apply(sent.incrementAndGet());
                if (++requests == REQUESTS_PER_CONNECTION && serverCloses) {
                    next.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
                }
                context.writeAndFlush(next);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
            context.close();
        }
    }
}
