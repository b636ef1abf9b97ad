package io.seckill.operator;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.util.List;
import org.apache.catalina.Manager;
import org.apache.catalina.session.ManagerBase;
import org.apache.catalina.session.StandardManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.security.config.annotation.ObjectPostProcessor;
import org.springframework.security.core.Authentication;
import org.springframework.security.web.authentication.SimpleUrlAuthenticationFailureHandler;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.authentication.session.ChangeSessionIdAuthenticationStrategy;
import org.springframework.security.web.authentication.session.CompositeSessionAuthenticationStrategy;
import org.springframework.security.web.authentication.session.SessionAuthenticationException;
import org.springframework.security.web.authentication.session.SessionAuthenticationStrategy;
import org.springframework.security.web.csrf.CsrfAuthenticationStrategy;
import org.springframework.security.web.csrf.CsrfTokenRepository;

/**
 * HTTP sessions are the console's logins and nothing else (a request that is not logged in opens none), and Tomcat
 * holds at most {@code seckill.operator.max-sessions} of them: its session manager refuses any session beyond, from
 * whatever code asks for one. Spring Security's {@code maximumSessions} would not bound them: it counts one user's
 * logins, and the sessions it expires stay in Tomcat until they time out.
 *
 * <p>The form login ({@link #formLogin}) opens its session as it succeeds, so a login beyond the cap fails as a login
 * (back to the form, one WARN line) rather than seeming to succeed without a session to keep it; a failed login keeps
 * nothing in a session.
 */
final class OperatorSessions implements WebServerFactoryCustomizer<TomcatServletWebServerFactory> {

    private static final Logger log = LoggerFactory.getLogger(OperatorSessions.class);

    private final int maxSessions;

    OperatorSessions(int maxSessions) {
        this.maxSessions = maxSessions;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            Manager manager = context.getManager();
            if (manager == null) {
                manager = new StandardManager();
                context.setManager(manager);
            }
            ((ManagerBase) manager).setMaxActiveSessions(maxSessions);
        });
    }

    /**
     * Set on the login filter itself: as {@code sessionManagement().sessionAuthenticationStrategy(…)}, Spring Security
     * would run the strategy for every Basic request too, a session each.
     *
     * @param csrfTokens the chain's CSRF token repository: the login replaces a token the browser had before
     */
    ObjectPostProcessor<UsernamePasswordAuthenticationFilter> formLogin(CsrfTokenRepository csrfTokens) {
        SimpleUrlAuthenticationFailureHandler failed = new SimpleUrlAuthenticationFailureHandler("/login?error");
        failed.setAllowSessionCreation(false);
        SessionAuthenticationStrategy succeeded = new CompositeSessionAuthenticationStrategy(List.of(
                new CsrfAuthenticationStrategy(csrfTokens), this::openSession));
        return new ObjectPostProcessor<>() {
            @Override
            public <O extends UsernamePasswordAuthenticationFilter> O postProcess(O filter) {
                filter.setAuthenticationFailureHandler(failed);
                filter.setSessionAuthenticationStrategy(succeeded);
                return filter;
            }
        };
    }

    /** Session fixation protection as Spring Security's default, with the session made here. */
    private void openSession(Authentication authentication, HttpServletRequest request, HttpServletResponse response) {
        ChangeSessionIdAuthenticationStrategy fixation = new ChangeSessionIdAuthenticationStrategy();
        fixation.setAlwaysCreateSession(true);
        try {
            fixation.onAuthentication(authentication, request, response);
        } catch (IllegalStateException full) {
            // Tomcat's TooManyActiveSessionsException.
            log.warn("Login of {} refused: {} sessions are open (seckill.operator.max-sessions); log out elsewhere or "
                    + "wait for one to time out (server.servlet.session.timeout)", authentication.getName(),
                    maxSessions);
            throw new SessionAuthenticationException("Too many sessions are open");
        }
    }
}
