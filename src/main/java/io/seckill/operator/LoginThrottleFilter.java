package io.seckill.operator;

import io.seckill.api.ClientAddresses;
import io.seckill.api.ProblemReportValve;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.security.authentication.AnonymousAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * {@link LoginThrottle} in Spring Security's chain, before the login form's and HTTP Basic's filters: a request
 * that brings credentials (a Basic header, a POST of the login form) from an address with too many failures is
 * answered 429 with Retry-After and never reaches the password check. Otherwise the outcome is counted once the
 * chain has run: logged in (the security context holds the user until the chain's own filter clears it, after
 * this one) or not. A form login refused for the session cap counts as a failure too: its password was checked
 * all the same.
 */
final class LoginThrottleFilter extends OncePerRequestFilter {

    private final LoginThrottle throttle;
    private final ClientAddresses clientAddresses;
    private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

    LoginThrottleFilter(LoginThrottle throttle, ClientAddresses clientAddresses) {
        this.throttle = throttle;
        this.clientAddresses = clientAddresses;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (!bringsCredentials(request)) {
            chain.doFilter(request, response);
            return;
        }
        String address = clientAddresses.of(request);
        long retryAfter = throttle.retryAfterSeconds(address);
        if (retryAfter > 0) {
            response.setHeader("Retry-After", Long.toString(retryAfter));
            request.setAttribute(ProblemReportValve.DETAIL_ATTRIBUTE, throttle.refusal(address, retryAfter));
            response.sendError(429);
            return;
        }
        chain.doFilter(request, response);
        Authentication user = contexts.getContext().getAuthentication();
        if (user != null && user.isAuthenticated() && !(user instanceof AnonymousAuthenticationToken)) {
            throttle.succeeded(address);
        } else {
            throttle.failed(address);
        }
    }

    private static boolean bringsCredentials(HttpServletRequest request) {
        String authorization = request.getHeader("Authorization");
        return authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6)
                || "POST".equals(request.getMethod()) && "/login".equals(request.getServletPath());
    }
}
