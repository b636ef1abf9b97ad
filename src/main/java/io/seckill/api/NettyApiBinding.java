package io.seckill.api;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponse;
import java.util.Map;
import java.util.Set;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.component.netty.http.NettyHttpConfiguration;
import org.apache.camel.component.netty.http.RestNettyHttpBinding;

/**
 * Camel's REST binding for netty-http, with an answer made from the headers it can carry. Camel (4.17) turns every
 * header of the message into a String before {@link ResponseHeaders} drops all but a few: the request's own, the
 * path's parameters, Camel's and Netty's internals (the channel's context among them, converted by its toString),
 * about a tenth of the I/O thread's time at the saturated intake (bench/runs/2026-11-29-answer-headers.md). Here
 * Camel's binding is offered only the headers {@link ResponseHeaders} lets through and the two it reads itself (the
 * status, the connection's keep-alive); what it sets on the message meanwhile (the mark that closes the connection)
 * is kept. The answer is the same, headers and all.
 */
final class NettyApiBinding extends RestNettyHttpBinding {

    private final Set<String> offered;

    NettyApiBinding(ResponseHeaders filter) {
        super(filter);
        this.offered = filter.answeredWith(Exchange.HTTP_RESPONSE_CODE, HttpHeaderNames.CONNECTION.toString());
    }

    @Override
    public HttpResponse toNettyResponse(Message message, NettyHttpConfiguration configuration) throws Exception {
        Map<String, Object> all = message.getHeaders();
        // The context's kind of map, which the message keeps as it is rather than copying it.
        Map<String, Object> answerable = message.getExchange().getContext().getCamelContextExtension()
                .getHeadersMapFactory().newMap();
        for (Map.Entry<String, Object> header : all.entrySet()) {
            // Its name as the message has it: Camel's binding writes it so.
            if (offered.contains(header.getKey())) {
                answerable.put(header.getKey(), header.getValue());
            }
        }
        message.setHeaders(answerable);
        try {
            return super.toNettyResponse(message, configuration);
        } finally {
            all.putAll(message.getHeaders());
            message.setHeaders(all);
        }
    }
}
