package io.seckill.api;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpStatusClass;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.camel.component.netty.DefaultChannelHandlerFactory;

/**
 * What one client may hold of the Netty engine, whose direct memory Lettuce shares: without these, slow or idle
 * clients kept connections and half-read requests for as long as they liked. One per channel, just after the
 * response encoder (the pipeline's {@code encoders} entry), where it sees requests decoded and answers whole:
 * <ul>
 *   <li>beyond {@code max-connections} open at once, a new connection is closed as it is accepted;
 *   <li>a connection waiting for its next request longer than {@code idle-timeout} (idle, or headers trickling in)
 *       is closed;
 *   <li>a request whose body has not arrived whole within {@code body-deadline} of its headers is answered 408
 *       REQUEST_TIMEOUT and the connection closed (no route has seen it);
 *   <li>with {@code max-pipelined-requests} received and not yet answered, the connection is not read until an
 *       answer goes out.
 * </ul>
 */
final class NettyConnectionLimits extends ChannelDuplexHandler {

    private final Factory limits;
    private boolean counted;
    /** Between a request's headers and its last content. */
    private boolean receiving;
    /** Set once a request timed out: what is left of it is dropped. */
    private boolean timedOut;
    private int unanswered;
    private ScheduledFuture<?> timer;

    private NettyConnectionLimits(Factory limits) {
        this.limits = limits;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        counted = true;
        if (limits.open.incrementAndGet() > limits.maxConnections) {
            ctx.close();
            return;
        }
        awaitRequest(ctx);
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        cancelTimer();
        if (counted) {
            counted = false;
            limits.open.decrementAndGet();
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (timedOut) {
            ReferenceCountUtil.release(msg);
            return;
        }
        if (msg instanceof HttpRequest) {
            receiving = true;
            schedule(ctx, limits.bodyDeadlineMillis, () -> timeOut(ctx));
        }
        if (msg instanceof LastHttpContent) {
            receiving = false;
            cancelTimer();
            if (++unanswered >= limits.maxPipelinedRequests) {
                ctx.channel().config().setAutoRead(false);
            }
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (answered(msg) && unanswered > 0) {
            if (unanswered-- == limits.maxPipelinedRequests) {
                ctx.channel().config().setAutoRead(true);
            }
            if (unanswered == 0 && !receiving) {
                awaitRequest(ctx);
            }
        }
        ctx.write(msg, promise);
    }

    /** The end of an answer (a whole response is its own last content); a 100 Continue is none. */
    static boolean answered(Object msg) {
        boolean informational = msg instanceof HttpResponse response
                && response.status().codeClass() == HttpStatusClass.INFORMATIONAL;
        return msg instanceof LastHttpContent && !informational;
    }

    private void awaitRequest(ChannelHandlerContext ctx) {
        schedule(ctx, limits.idleTimeoutMillis, ctx::close);
    }

    private void timeOut(ChannelHandlerContext ctx) {
        timedOut = true;
        ctx.channel().writeAndFlush(limits.problems.answer(408, ctx.channel().attr(NettyRequestGate.REQUEST).get(),
                "The body did not arrive within " + limits.bodyDeadlineMillis + " ms (seckill.api.body-deadline)"))
                .addListener(ChannelFutureListener.CLOSE);
    }

    private void schedule(ChannelHandlerContext ctx, long millis, Runnable action) {
        cancelTimer();
        timer = ctx.executor().schedule(action, millis, TimeUnit.MILLISECONDS);
    }

    private void cancelTimer() {
        if (timer != null) {
            timer.cancel(false);
            timer = null;
        }
    }

    /** The pipeline's {@code encoders} entry: a handler for each channel, one count of open connections for all. */
    static final class Factory extends DefaultChannelHandlerFactory {

        private final AtomicInteger open = new AtomicInteger();
        private final EngineProblemWriter problems;
        private final int maxConnections;
        private final int maxPipelinedRequests;
        private final long idleTimeoutMillis;
        private final long bodyDeadlineMillis;

        Factory(ApiProperties api, EngineProblemWriter problems) {
            this.problems = problems;
            this.maxConnections = api.maxConnections();
            this.maxPipelinedRequests = api.maxPipelinedRequests();
            this.idleTimeoutMillis = api.idleTimeout().toMillis();
            this.bodyDeadlineMillis = api.bodyDeadline().toMillis();
        }

        @Override
        public ChannelHandler newChannelHandler() {
            return new NettyConnectionLimits(this);
        }
    }
}
