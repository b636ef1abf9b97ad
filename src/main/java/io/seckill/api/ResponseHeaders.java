package io.seckill.api;

import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
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

    // Compared regardless of case without a lower-cased copy of each name: this runs for each header of each answer.
    private static final SortedSet<String> ANSWERED = answered("Content-Type", "Location", "Retry-After", "Allow",
            "WWW-Authenticate");

    private final HeaderFilterStrategy requests = new HttpHeaderFilterStrategy();

    @Override
    public boolean applyFilterToCamelHeaders(String name, Object value, Exchange exchange) {
        return !ANSWERED.contains(name);
    }

    @Override
    public boolean applyFilterToExternalHeaders(String name, Object value, Exchange exchange) {
        return requests.applyFilterToExternalHeaders(name, value, exchange);
    }

    /** The headers an answer may carry, with the others named (for a binding that reads those itself). */
    Set<String> answeredWith(String... others) {
        SortedSet<String> names = new TreeSet<>(ANSWERED);
        names.addAll(List.of(others));
        return Collections.unmodifiableSortedSet(names);
    }

    private static SortedSet<String> answered(String... names) {
        SortedSet<String> answered = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        answered.addAll(List.of(names));
        return Collections.unmodifiableSortedSet(answered);
    }
}
