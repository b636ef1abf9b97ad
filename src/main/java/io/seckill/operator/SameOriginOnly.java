package io.seckill.operator;

import io.seckill.api.ProblemReportValve;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.web.cors.CorsUtils;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * Refuses (403) every management request whose {@code Origin} is not the service's own (scheme, host and port of
 * the request, as Spring's CORS support compares them), before any login is looked at: a page on another site can
 * neither drive Jolokia with the operator's session nor log a browser in. No CORS header is ever sent, so no other
 * origin may read an answer either. Requests without an {@code Origin} (scripts, Prometheus, a browser navigating)
 * pass.
 */
final class SameOriginOnly extends OncePerRequestFilter {

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (foreign(request)) {
            request.setAttribute(ProblemReportValve.DETAIL_ATTRIBUTE,
                    "Requests from another origin are refused; open the console from this service's own address");
            response.sendError(HttpServletResponse.SC_FORBIDDEN);
            return;
        }
        chain.doFilter(request, response);
    }

    private static boolean foreign(HttpServletRequest request) {
        try {
            return CorsUtils.isCorsRequest(request);
        } catch (IllegalArgumentException unreadable) {
            return true;
        }
    }
}
