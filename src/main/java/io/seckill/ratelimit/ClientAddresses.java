package io.seckill.ratelimit;

import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.component.netty.NettyConstants;
import org.apache.camel.component.platform.http.springboot.PlatformHttpMessage;
import org.springframework.stereotype.Component;

/**
 * The address a request comes from, for the per-address rate limit: the socket's peer, unless that peer is one of
 * {@code seckill.rate-limit.trusted-proxies}; then the right-most address of {@code X-Forwarded-For} that is not a
 * trusted proxy (each proxy appends the peer it saw, so everything left of that is the client's own say).
 *
 * <p>platform-http on Spring MVC hands the route a {@link PlatformHttpMessage}, which holds the servlet request;
 * the peer address is nowhere in the headers.
 */
@Component("clientAddresses")
public class ClientAddresses {

    static final String FORWARDED_FOR = "X-Forwarded-For";

    private final List<AddressRange> trustedProxies;

    public ClientAddresses(RateLimitProperties properties) {
        this.trustedProxies = properties.trustedProxies().stream()
                .filter(proxy -> !proxy.isBlank())
                .map(AddressRange::parse)
                .toList();
    }

    /** The client address of a request on either HTTP engine (Tomcat's platform-http, or Netty's). */
    public String of(Exchange exchange) {
        Message in = exchange.getIn();
        if (in instanceof PlatformHttpMessage http) {
            HttpServletRequest request = http.getRequest();
            return of(request.getRemoteAddr(), Collections.list(request.getHeaders(FORWARDED_FOR)));
        }
        if (in.getHeader(NettyConstants.NETTY_REMOTE_ADDRESS) instanceof InetSocketAddress peer) {
            // Netty's binding gives one header as a String and several as a List.
            Object forwarded = in.getHeader(FORWARDED_FOR);
            List<String> forwardedFor = forwarded == null ? List.of()
                    : forwarded instanceof List<?> all ? all.stream().map(String::valueOf).toList()
                    : List.of(forwarded.toString());
            return of(peer.getAddress().getHostAddress(), forwardedFor);
        }
        throw new IllegalStateException("Not an HTTP request: no client address");
    }

    /**
     * @param peer the socket's remote address
     * @param forwardedFor every {@code X-Forwarded-For} header, in order
     */
    String of(String peer, List<String> forwardedFor) {
        Optional<InetAddress> peerAddress = AddressRange.literal(peer);
        if (peerAddress.isEmpty() || !trusted(peerAddress.get())) {
            return peerAddress.map(InetAddress::getHostAddress).orElse(peer);
        }
        String client = peerAddress.get().getHostAddress();
        List<String> hops = hops(forwardedFor);
        for (int i = hops.size() - 1; i >= 0; i--) {
            // A hop that is no address ends the walk: the request counts against the proxy that passed it on.
            Optional<InetAddress> hop = AddressRange.literal(hops.get(i));
            if (hop.isEmpty()) {
                return client;
            }
            client = hop.get().getHostAddress();
            if (!trusted(hop.get())) {
                return client;
            }
        }
        return client;
    }

    private boolean trusted(InetAddress address) {
        return trustedProxies.stream().anyMatch(range -> range.contains(address));
    }

    private static List<String> hops(List<String> headers) {
        List<String> hops = new ArrayList<>();
        for (String header : headers) {
            for (String hop : header.split(",")) {
                if (!hop.isBlank()) {
                    hops.add(hop.trim());
                }
            }
        }
        return hops;
    }
}
