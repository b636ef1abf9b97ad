package io.seckill.api;

import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import org.apache.camel.component.netty.DefaultChannelHandlerFactory;

/**
 * The Netty engine's answer to the flood of a sale: an order that this instance's memory refuses (NOT_STARTED,
 * ENDED, SOLD_OUT, ALREADY_ORDERED: io.seckill.order.SaleView) is answered here, on the connection's I/O thread, as
 * the order route would answer it (the same status, headers and problem+json, counted in the same metrics), without
 * an exchange, a route or the hand-off to Camel's worker pool and back. In a sale nearly every request is one of these.
 * Anything else goes on to the routes: an order the memory cannot refuse, a malformed one (the route says what is
 * wrong with it), one with a body, any other request, and a sixteenth of the NOT_STARTED refusals, which keep the
 * route's compiled code ready for the sale's start ({@link OrderPlacement#ROUTED_NOT_STARTED}).
 *
 * <p>One per channel, the last of the pipeline's {@code encoders}: after {@link NettyRequestGate} (which answers 503
 * until the API is open), {@link NettyConnectionLimits} and {@link NettyRequestOrder}, which passes a connection's
 * requests on one at a time (an answer written here follows the answers to the requests before it). It sees requests
 * as decoded; the answer goes out once the request has arrived whole.
 */
final class NettyRememberedRefusals extends ChannelInboundHandlerAdapter {

    /** What this instance remembers of an order: the route's answer, counted as the route counts it, or null. */
    @FunctionalInterface
    interface Memory {
        Problem remembered(long voucherId, long userId, boolean warmUp, String path);
    }

    private final Factory factory;
    /** The answer to the request being received, written once its last content has arrived. */
    private FullHttpResponse answer;
    private boolean closeAfterAnswer;

    private NettyRememberedRefusals(Factory factory) {
        this.factory = factory;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest request) {
            answer = fromMemory(request);
        }
        if (answer != null && (msg instanceof HttpRequest || msg instanceof HttpContent)) {
            ReferenceCountUtil.release(msg);
            if (msg instanceof LastHttpContent) {
                answer(ctx);
            }
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (answer != null) {
            answer.release();
            answer = null;
        }
        ctx.fireChannelInactive();
    }

    private void answer(ChannelHandlerContext ctx) {
        FullHttpResponse written = answer;
        answer = null;
        ChannelFuture sent = ctx.writeAndFlush(written);
        if (closeAfterAnswer) {
            sent.addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** The remembered refusal of this request, if it is an order without a body; null: the routes answer it. */
    private FullHttpResponse fromMemory(HttpRequest request) {
        if (!HttpMethod.POST.equals(request.method()) || HttpUtil.getContentLength(request, 0L) != 0
                || HttpUtil.isTransferEncodingChunked(request)) {
            return null;
        }
        String path = OrderPath.of(request.uri());
        long voucherId = OrderPath.voucherId(path);
        if (voucherId == 0) {
            return null;
        }
        long userId = BuyerIdentity.of(request.headers().getAll(BuyerIdentity.HEADER));
        if (userId == 0) {
            return null;
        }
        boolean warmUp = factory.warmUps.isWarmUp(request.headers().getAll(WarmUpRequests.HEADER), voucherId);
        Problem problem = factory.memory.remembered(voucherId, userId, warmUp, path);
        if (problem == null) {
            return null;
        }
        return response(problem, request.headers().get(HttpHeaderNames.CONNECTION));
    }

    /**
     * As Camel's netty-http binding answers a route's problem: HTTP/1.1, the request's own Connection header echoed
     * (keep-alive when it has none), closed after the answer when that says close.
     */
    private FullHttpResponse response(Problem problem, String connection) {
        closeAfterAnswer = connection != null && HttpHeaderValues.CLOSE.contentEqualsIgnoreCase(connection);
        return factory.problems.answer(problem, connection != null ? connection : HttpHeaderValues.KEEP_ALIVE);
    }

    /** The pipeline's {@code encoders} entry: a handler for each channel. */
    static final class Factory extends DefaultChannelHandlerFactory {

        private final Memory memory;
        private final WarmUpRequests warmUps;
        private final EngineProblemWriter problems;

        /** @param memory {@link OrderPlacement#remembered} */
        Factory(Memory memory, WarmUpRequests warmUps, EngineProblemWriter problems) {
            this.memory = memory;
            this.warmUps = warmUps;
            this.problems = problems;
        }

        @Override
        public ChannelHandler newChannelHandler() {
            return new NettyRememberedRefusals(this);
        }
    }
}
