package io.seckill.api;

import io.netty.channel.ChannelHandler.Sharable;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.util.AttributeKey;
import java.util.Locale;
import org.apache.camel.component.netty.http.NettyHttpConsumer;
import org.apache.camel.component.netty.http.handlers.HttpServerChannelHandler;
import org.apache.camel.component.netty.http.handlers.HttpServerMultiplexChannelHandler;

/**
 * Camel's netty-http multiplexer, which hands each request on the API's port to the REST route it is for, with the
 * order placement found without Camel's search. Camel (4.17) searches every request anew: for each of the port's
 * consumers it splits the consumer's path and the request's into segments and compares them, about 12 of the 40 KB
 * an order request allocated at the saturated intake (JFR's allocation figures,
 * bench/runs/2026-11-28-rest-multiplexer.md), and with them young collections, whose pauses are the POST latency's
 * tail. A POST to {@code /api/vouchers/{id}/orders} whose id is plain digits ({@link OrderPath}) goes straight to the
 * consumer of that path, the one Camel's search finds for it too; every other request is searched as Camel searches.
 */
@Sharable
final class NettyApiMultiplexer extends HttpServerMultiplexChannelHandler {

    /** Camel's own key of the channel's current consumer, which its handlers read when a connection fails. */
    private static final AttributeKey<HttpServerChannelHandler> SERVER_HANDLER = AttributeKey.valueOf("serverHandler");

    private volatile HttpServerChannelHandler orders;
    /** An HTTP proxy consumer takes every request in Camel's search: none here, but then there is no shortcut. */
    private volatile boolean proxy;

    @Override
    public void addConsumer(NettyHttpConsumer consumer) {
        super.addConsumer(consumer);
        if (consumer.getConfiguration().isHttpProxy()) {
            proxy = true;
        } else if (placesOrders(consumer)) {
            orders = new HttpServerChannelHandler(consumer);
        }
    }

    @Override
    public void removeConsumer(NettyHttpConsumer consumer) {
        super.removeConsumer(consumer);
        HttpServerChannelHandler current = orders;
        if (current != null && current.getConsumer() == consumer) {
            orders = null;
        }
    }

    /** The consumer Camel's search gives an order placement, when it runs. */
    HttpServerChannelHandler orders() {
        return orders;
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, Object msg) throws Exception {
        HttpServerChannelHandler handler = orders;
        if (handler != null && !proxy && msg instanceof HttpRequest request && isOrderPlacement(request)) {
            // What Camel's multiplexer does with the consumer it found.
            ctx.channel().attr(SERVER_HANDLER).set(handler);
            if (msg instanceof HttpContent content) {
                content.content().retain(); // released by this handler's caller once read, as in Camel's
            }
            handler.channelRead(ctx, msg);
            return;
        }
        super.channelRead0(ctx, msg);
    }

    static boolean isOrderPlacement(HttpRequest request) {
        return HttpMethod.POST.equals(request.method()) && OrderPath.voucherId(OrderPath.of(request.uri())) != 0;
    }

    /** The REST consumer of {@code POST /api/vouchers/{id}/orders}, as the REST DSL makes it. */
    private static boolean placesOrders(NettyHttpConsumer consumer) {
        String path = consumer.getConfiguration().getPath();
        if (path == null || !OrderPath.TEMPLATE.equals(path.startsWith("/") ? path.substring(1) : path)
                || consumer.getEndpoint().getConfiguration().isMatchOnUriPrefix()) {
            return false;
        }
        String restrict = consumer.getEndpoint().getHttpMethodRestrict();
        return restrict != null && restrict.toUpperCase(Locale.ROOT).contains("POST");
    }
}
