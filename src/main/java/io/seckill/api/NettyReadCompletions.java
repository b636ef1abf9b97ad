package io.seckill.api;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPipeline;

/**
 * Ends each read's completion event on the I/O thread, before Camel's request handler. Camel puts that handler (the
 * port's multiplexer, {@value #ROUTE_HANDLER} in the pipeline) on its route pool's executor, and Netty hands every
 * inbound event to a handler on another executor, even one the handler does not implement (netty#10067: events must
 * arrive in order). Camel's handler does nothing with a read's completion, yet each order request's read gave the route
 * pool a second task right behind the request, and often woke a parked thread of it for that empty task: at the
 * saturated intake, over a quarter of the signals that woke the route pool's threads
 * (bench/runs/2026-11-29-read-completions.md).
 *
 * <p>Among the pipeline's {@code decoders}; when the channel is registered, its pipeline is complete: a stop that
 * takes the event goes just before Camel's handler, after the aggregator (which asks for the next read on this event
 * while it holds part of a request and auto-read is off), and this handler leaves the pipeline. Where Camel's handler
 * runs on the I/O thread itself ({@code usingExecutorService=false}), nothing is added: Netty skips it already.
 */
@Sharable
final class NettyReadCompletions extends ChannelInboundHandlerAdapter {

    /** The name Camel's netty-http gives its request handler in each connection's pipeline. */
    static final String ROUTE_HANDLER = "handler";
    static final String STOP = "read-complete-stop";

    private static final ChannelHandler STOP_HANDLER = new Stop();

    @Override
    public void channelRegistered(ChannelHandlerContext ctx) {
        ChannelPipeline pipeline = ctx.pipeline();
        ChannelHandlerContext route = pipeline.context(ROUTE_HANDLER);
        if (route != null && route.executor() != ctx.executor()) {
            pipeline.addBefore(ROUTE_HANDLER, STOP, STOP_HANDLER);
        }
        pipeline.remove(this);
        ctx.fireChannelRegistered();
    }

    /** Takes a read's completion; every other event passes it without a call (Netty skips its other methods). */
    @Sharable
    private static final class Stop extends ChannelInboundHandlerAdapter {

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            // Ends here: nothing after this handler uses it.
        }
    }
}
