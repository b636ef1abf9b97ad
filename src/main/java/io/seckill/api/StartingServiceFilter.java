package io.seckill.api;

import jakarta.servlet.FilterChain;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.apache.camel.CamelContext;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpHeaders;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Answers 503 UNAVAILABLE with Retry-After to the API while its Camel routes are not running: Tomcat listens
 * before Camel has started the routes (and still listens while they stop), and without this a buyer or a load
 * balancer would hear "404 There is nothing at /api/…", which says the wrong thing. The same while the service warms
 * itself up ({@link WarmUpRequests}), to every request but the warm-up's. The actuator is Spring MVC's and answers
 * throughout (readiness is DOWN until the routes run and the warm-up is done).
 */
// Before BodyReader, which takes every request with a body on into an async dispatch that this filter skips.
@Component
@Order(Ordered.LOWEST_PRECEDENCE - 1)
class StartingServiceFilter extends OncePerRequestFilter {

    private static final String RETRY_AFTER_SECONDS = "1";

    private final CamelContext camel;
    private final WarmUpRequests warmUp;

    StartingServiceFilter(CamelContext camel, WarmUpRequests warmUp) {
        this.camel = camel;
        this.warmUp = warmUp;
    }

    @Override
    protected boolean shouldNotFilter(HttpServletRequest request) {
        // /api/… and /api-doc are the REST DSL's; a started context has started every route.
        return !request.getRequestURI().startsWith("/api")
                || camel.isStarted() && warmUp.open(request.getHeader(WarmUpRequests.HEADER));
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws IOException {
        response.setHeader(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS);
        request.setAttribute(ProblemReportValve.DETAIL_ATTRIBUTE,
                "The service is starting or stopping; retry in " + RETRY_AFTER_SECONDS + " s");
        response.sendError(HttpServletResponse.SC_SERVICE_UNAVAILABLE);
    }
}
