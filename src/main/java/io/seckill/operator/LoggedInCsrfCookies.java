package io.seckill.operator;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.security.web.csrf.CookieCsrfTokenRepository;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.CsrfTokenRepository;

/**
 * The console's CSRF token, in the {@code XSRF-TOKEN} cookie that Hawtio's script reads and sends back, issued only to
 * a browser that is logged in (one with a session): a request that is not logged in gets no cookie. The login form
 * itself therefore carries no token that could be checked; cross-site logins are refused by {@link SameOriginOnly}.
 */
final class LoggedInCsrfCookies implements CsrfTokenRepository {

    private final CookieCsrfTokenRepository cookies = CookieCsrfTokenRepository.withHttpOnlyFalse();

    @Override
    public CsrfToken generateToken(HttpServletRequest request) {
        return cookies.generateToken(request);
    }

    /** A null token removes the cookie (at logout), which is always allowed. */
    @Override
    public void saveToken(CsrfToken token, HttpServletRequest request, HttpServletResponse response) {
        if (token == null || request.getSession(false) != null) {
            cookies.saveToken(token, request, response);
        }
    }

    @Override
    public CsrfToken loadToken(HttpServletRequest request) {
        return cookies.loadToken(request);
    }
}
