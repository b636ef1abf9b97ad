package io.seckill.api;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.ArrayDeque;
import org.apache.camel.component.netty.DefaultChannelHandlerFactory;

/**
 * Answers in the order of their requests. HTTP/1.1 lets a client send requests without waiting for the answers
 * (pipelining) and requires the answers in the order of the requests (RFC 9112, 9.3.2); Camel's netty-http runs each
 * request's route as it arrives and writes each answer when its route completes, so a refusal from memory overtook
 * an earlier order still waiting for Redis. So the routes get one request of a connection at a time: one that arrives
 * while an earlier one awaits its answer is held, in its parts, until that answer has been written.
 *
 * <p>One per channel, in the pipeline's {@code encoders} after {@link NettyConnectionLimits}, which bounds how many
 * requests a connection may have unanswered (held ones included) before it is not read.
 */
final class NettyRequestOrder extends ChannelDuplexHandler {

    /** Parts of requests that arrived while an earlier one awaits its answer. */
    private final ArrayDeque<Object> held = new ArrayDeque<>();
    /** A request's head has been passed on, its last content not yet. */
    private boolean passing;
    /** The request being passed on was answered before it arrived whole (the aggregator's 413, say). */
    private boolean answeredEarly;
    /** A request passed on whole awaits its answer. */
    private boolean awaited;

    private NettyRequestOrder() {
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (awaited || !held.isEmpty()) {
            held.add(msg);
            return;
        }
        pass(ctx, msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        ctx.write(msg, promise);
        if (!NettyConnectionLimits.answered(msg)) {
            return;
        }
        if (awaited) {
            awaited = false;
            if (!held.isEmpty()) {
                // Once this write's caller is done: the next request's answer may be written as it is passed on.
                ctx.executor().execute(() -> passHeld(ctx));
            }
        } else if (passing) {
            answeredEarly = true;
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        held.forEach(ReferenceCountUtil::release);
        held.clear();
        ctx.fireChannelInactive();
    }

    private void passHeld(ChannelHandlerContext ctx) {
        while (!awaited && !held.isEmpty() && ctx.channel().isActive()) {
            pass(ctx, held.poll());
        }
    }

    private void pass(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof HttpRequest) {
            passing = true;
            answeredEarly = false;
        }
        if (msg instanceof LastHttpContent) {
            passing = false;
            awaited = !answeredEarly;
        }
        ctx.fireChannelRead(msg);
    }

    /** The pipeline's {@code encoders} entry: a handler for each channel. */
    static final class Factory extends DefaultChannelHandlerFactory {

        @Override
        public ChannelHandler newChannelHandler() {
            return new NettyRequestOrder();
        }
    }
}
