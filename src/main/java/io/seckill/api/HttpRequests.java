package io.seckill.api;

import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.component.netty.NettyConstants;
import org.apache.camel.component.netty.http.NettyHttpMessage;
import org.apache.camel.component.platform.http.springboot.PlatformHttpMessage;

/**
 * A request as it came over the wire, on either HTTP engine: its TCP peer and its HTTP headers. Camel's message
 * headers are no substitute for what needs trust: both engines put the query parameters there too, so
 * {@code ?X-Payment-Signature=…} would read like the header. platform-http hands the route a
 * {@link PlatformHttpMessage} holding the servlet request, netty-http a {@link NettyHttpMessage} holding Netty's
 * request and the channel's peer in a header of its own (an object, which no query parameter can be).
 */
public final class HttpRequests {

    private HttpRequests() {
    }

    /** The address at the other end of the connection: the client, or the proxy in front of it. */
    public static InetAddress peer(Exchange exchange) {
        Message in = exchange.getIn();
        if (in instanceof PlatformHttpMessage http) {
            try {
                // An address literal, as Tomcat writes it: parsed, never looked up.
                return InetAddress.getByName(http.getRequest().getRemoteAddr());
            } catch (UnknownHostException e) {
                throw new IllegalStateException("Tomcat gave no peer address: " + http.getRequest().getRemoteAddr(), e);
            }
        }
        if (in.getHeader(NettyConstants.NETTY_REMOTE_ADDRESS) instanceof InetSocketAddress peer) {
            return peer.getAddress();
        }
        throw new IllegalStateException("Not an HTTP request: no peer address");
    }

    /** Every value of an HTTP header, in the order sent (none: an empty list). */
    public static List<String> headers(Exchange exchange, String name) {
        Message in = exchange.getIn();
        if (in instanceof PlatformHttpMessage http) {
            HttpServletRequest request = http.getRequest();
            return Collections.list(request.getHeaders(name));
        }
        if (in instanceof NettyHttpMessage netty) {
            return netty.getHttpRequest().headers().getAll(name);
        }
        throw new IllegalStateException("Not an HTTP request: no headers");
    }

    /** The first value of an HTTP header. */
    public static Optional<String> header(Exchange exchange, String name) {
        List<String> values = headers(exchange, name);
        return values.isEmpty() ? Optional.empty() : Optional.of(values.get(0));
    }
}
