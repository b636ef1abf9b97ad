package io.seckill.api;

import io.seckill.ratelimit.RateLimitProperties;
import jakarta.servlet.http.HttpServletRequest;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import org.apache.camel.Exchange;
import org.springframework.stereotype.Component;

/**
 * The address a request comes from, for the per-address rate limits and the login throttle: the socket's peer,
 * unless that peer is one of {@code seckill.rate-limit.trusted-proxies}; then the right-most address of
 * {@code X-Forwarded-For} that is not a trusted proxy (each proxy appends the peer it saw, so everything left of
 * that is the client's own say).
 * Both are read from the request itself ({@link HttpRequests}), never from a query parameter of that name.
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

    /**
     * The client address of a request on either HTTP engine (Tomcat's platform-http, or Netty's). A peer that is no
     * trusted proxy (every peer when none is set, the default) is the client: its {@code X-Forwarded-For} is not read.
     */
    public String of(Exchange exchange) {
        InetAddress peer = HttpRequests.peer(exchange);
        return trusted(peer) ? behind(peer, HttpRequests.headers(exchange, FORWARDED_FOR)) : peer.getHostAddress();
    }

    /** The client address of a request to Tomcat outside the API (the login on the management URLs). */
    public String of(HttpServletRequest request) {
        return of(request.getRemoteAddr(), Collections.list(request.getHeaders(FORWARDED_FOR)));
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
        return behind(peerAddress.get(), forwardedFor);
    }

    /** The client behind a trusted proxy: the right-most hop of {@code X-Forwarded-For} that is no trusted proxy. */
    private String behind(InetAddress proxy, List<String> forwardedFor) {
        String client = proxy.getHostAddress();
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
        for (AddressRange range : trustedProxies) {
            if (range.contains(address)) {
                return true;
            }
        }
        return false;
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
