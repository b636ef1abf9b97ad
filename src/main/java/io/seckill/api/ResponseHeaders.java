package io.seckill.api;

import java.util.Set;
import org.apache.camel.Exchange;
import org.apache.camel.http.base.HttpHeaderFilterStrategy;
import org.apache.camel.spi.HeaderFilterStrategy;
import org.springframework.stereotype.Component;

/**
 * Camel would copy every message header (the request's own, path parameters, internals) into the HTTP
 * response; an API answer carries only the headers it means to. Requests are read as platform-http reads them.
 */
@Component("apiHeaderFilter")
public class ResponseHeaders implements HeaderFilterStrategy {

    private static final Set<String> ANSWERED = Set.of("content-type", "location", "retry-after", "allow");

    private final HeaderFilterStrategy requests = new HttpHeaderFilterStrategy();

    @Override
    public boolean applyFilterToCamelHeaders(String name, Object value, Exchange exchange) {
        return !ANSWERED.contains(name.toLowerCase(java.util.Locale.ROOT));
    }

    @Override
    public boolean applyFilterToExternalHeaders(String name, Object value, Exchange exchange) {
        return requests.applyFilterToExternalHeaders(name, value, exchange);
    }
}
