package io.seckill.operator;

import io.seckill.api.ClientAddresses;
import io.seckill.api.ProblemReportValve;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.DelegatingFilterProxyRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.security.access.AccessDeniedException;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.crypto.password.PasswordEncoder;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;
import org.springframework.security.web.SecurityFilterChain;
import org.springframework.security.web.access.AccessDeniedHandlerImpl;
import org.springframework.security.web.authentication.HttpStatusEntryPoint;
import org.springframework.security.web.authentication.LoginUrlAuthenticationEntryPoint;
import org.springframework.security.web.authentication.UsernamePasswordAuthenticationFilter;
import org.springframework.security.web.authentication.www.BasicAuthenticationEntryPoint;
import org.springframework.security.web.authentication.www.BasicAuthenticationFilter;
import org.springframework.security.web.csrf.CsrfFilter;
import org.springframework.security.web.csrf.CsrfToken;
import org.springframework.security.web.csrf.CsrfTokenRequestAttributeHandler;
import org.springframework.security.web.csrf.XorCsrfTokenRequestAttributeHandler;
import org.springframework.security.web.savedrequest.NullRequestCache;
import org.springframework.security.web.servlet.util.matcher.PathPatternRequestMatcher;
import org.springframework.security.web.util.matcher.AndRequestMatcher;
import org.springframework.security.web.util.matcher.MediaTypeRequestMatcher;
import org.springframework.security.web.util.matcher.NegatedRequestMatcher;
import org.springframework.security.web.util.matcher.OrRequestMatcher;
import org.springframework.security.web.util.matcher.RequestHeaderRequestMatcher;
import org.springframework.security.web.util.matcher.RequestMatcher;
import org.springframework.util.StringUtils;
import org.springframework.web.filter.OncePerRequestFilter;

/**
 * The operator's login on every management URL: the console ({@code /actuator/hawtio}), Jolokia and the actuator,
 * except liveness and readiness, which orchestrators call without credentials. A browser logs in with a form
 * ({@code /login}, a session); scripts and Prometheus send HTTP Basic. A request that is not logged in gets neither
 * a session nor a cookie, and a request from another origin is refused ({@link SameOriginOnly}). The REST API
 * ({@code /api/**}, {@code /api-doc}) is outside this filter chain altogether: no CSRF, no extra headers; its admin
 * verbs check the same login themselves ({@link AdminAccess}), as Netty serves them without Spring Security. Both
 * refuse an address with too many failed logins before checking its password ({@link LoginThrottle}).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(OperatorProperties.class)
public class OperatorSecurityConfiguration {

    static final String ROLE = "OPERATOR";
    /** The realm of every Basic challenge: the management URLs' and the admin verbs' ({@link AdminAccess}). */
    static final String REALM = "seckill operator";
    /** Servlet URL patterns; "/actuator/*" also maps "/actuator" itself. */
    private static final List<String> MANAGEMENT_URL_PATTERNS = List.of("/actuator/*", "/login", "/logout");
    private static final Logger log = LoggerFactory.getLogger(OperatorSecurityConfiguration.class);

    /** Also keeps Spring Boot from creating its default user, whose generated password it would log. */
    @Bean
    UserDetailsService operatorUsers(OperatorProperties operator) {
        if (!operator.canLogIn()) {
            log.warn("No operator password (seckill.operator.password): the console (/actuator/hawtio) and Jolokia "
                    + "are off, nobody can log in to health details or /actuator/prometheus, and admin verbs "
                    + "(POST /api/vouchers) are accepted from this host only");
            return new InMemoryUserDetailsManager();
        }
        PasswordEncoder encoder = PasswordEncoderFactories.createDelegatingPasswordEncoder();
        // A password given as Spring Security stores one ("{bcrypt}$2a$…") is used as it is; plain text is hashed.
        String stored = operator.password().startsWith("{") ? operator.password() : encoder.encode(operator.password());
        return new InMemoryUserDetailsManager(User.withUsername(operator.username()).password(stored)
                .roles(ROLE).build());
    }

    /**
     * Spring Security's servlet filter runs on the URLs of {@link #managementSecurity} only, the same set its
     * matcher names. Mapped to every URL (Boot's default), each API request went through the filter chain proxy, its
     * firewall and Spring MVC's request-matching cache only to find no chain of its: a tenth of the intake's CPU.
     */
    @Bean
    static BeanPostProcessor securityFilterOnManagementUrlsOnly() {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessBeforeInitialization(Object bean, String beanName) {
                // Boot's SecurityFilterAutoConfiguration registers springSecurityFilterChain under this name.
                if (bean instanceof DelegatingFilterProxyRegistrationBean registration
                        && "securityFilterChainRegistration".equals(beanName)) {
                    registration.setUrlPatterns(MANAGEMENT_URL_PATTERNS);
                }
                return bean;
            }
        };
    }

    @Bean
    OperatorSessions operatorSessions(OperatorProperties operator) {
        return new OperatorSessions(operator.maxSessions());
    }

    /** Shared by the management URLs' logins ({@link LoginThrottleFilter}) and the admin verbs ({@link AdminAccess}). */
    @Bean
    LoginThrottle loginThrottle(OperatorProperties operator) {
        return new LoginThrottle(operator.loginThrottle());
    }

    @Bean
    SecurityFilterChain managementSecurity(HttpSecurity http, OperatorProperties operator,
            OperatorSessions sessions, LoginThrottle loginThrottle, ClientAddresses clientAddresses) throws Exception {
        // Keep in step with MANAGEMENT_URL_PATTERNS.
        PathPatternRequestMatcher.Builder path = PathPatternRequestMatcher.withDefaults();
        RequestMatcher basic = request -> {
            String authorization = request.getHeader("Authorization");
            return authorization != null && authorization.regionMatches(true, 0, "Basic ", 0, 6);
        };
        RequestMatcher jolokia = new OrRequestMatcher(path.matcher("/actuator/jolokia"),
                path.matcher("/actuator/jolokia/**"));
        RequestMatcher jolokiaPost = new OrRequestMatcher(path.matcher(HttpMethod.POST, "/actuator/jolokia"),
                path.matcher(HttpMethod.POST, "/actuator/jolokia/**"));
        MediaTypeRequestMatcher browserPage = new MediaTypeRequestMatcher(MediaType.TEXT_HTML);
        browserPage.setIgnoredMediaTypes(Set.of(MediaType.ALL));
        LoggedInCsrfCookies csrfTokens = new LoggedInCsrfCookies();
        http.securityMatcher(new OrRequestMatcher(path.matcher("/actuator"), path.matcher("/actuator/**"),
                        path.matcher("/login"), path.matcher("/logout")))
                .authorizeHttpRequests(requests -> {
                    requests.requestMatchers(path.matcher("/actuator/health/liveness"),
                            path.matcher("/actuator/health/readiness")).permitAll();
                    if (!operator.canLogIn()) {
                        // Switched off (OperatorConsoleSwitch): say 404, as for any URL that is not there.
                        requests.requestMatchers(path.matcher("/actuator/hawtio/**"), jolokia).permitAll();
                    }
                    // Jolokia over GET would run an operation from a URL (a link, an <img>): POST only, as Hawtio
                    // calls it. The restrictor says the same inside Jolokia, which would answer HTTP 200 regardless.
                    requests.requestMatchers(jolokiaPost).hasRole(ROLE);
                    requests.requestMatchers(jolokia).denyAll();
                    requests.anyRequest().hasRole(ROLE);
                })
                .formLogin(form -> form.defaultSuccessUrl("/actuator/hawtio/", false)
                        .withObjectPostProcessor(sessions.formLogin(csrfTokens)))
                .httpBasic(httpBasic -> httpBasic.realmName(REALM))
                .logout(logout -> logout.logoutSuccessUrl("/login?logout"))
                // A refused request is not kept for after a login (that was a session per anonymous request): the
                // login lands on the console.
                .requestCache(cache -> cache.requestCache(new NullRequestCache()))
                // A page asked for in a browser goes to the login form; Hawtio's own calls (XMLHttpRequest) get a
                // bare 401 (no browser pop-up); everything else, scripts and Prometheus, a Basic challenge.
                .exceptionHandling(errors -> errors
                        .defaultAuthenticationEntryPointFor(new LoginUrlAuthenticationEntryPoint("/login"), browserPage)
                        .defaultAuthenticationEntryPointFor(new HttpStatusEntryPoint(HttpStatus.UNAUTHORIZED),
                                new RequestHeaderRequestMatcher("X-Requested-With", "XMLHttpRequest"))
                        .defaultAuthenticationEntryPointFor(basicEntryPoint(), request -> true)
                        .defaultAccessDeniedHandlerFor(OperatorSecurityConfiguration::postOnly,
                                new AndRequestMatcher(jolokia, new NegatedRequestMatcher(jolokiaPost)))
                        .defaultAccessDeniedHandlerFor(new AccessDeniedHandlerImpl(), request -> true))
                // A request with Basic credentials proves itself on its own (no session cookie a foreign page could
                // ride on), so needs no CSRF token; the console's session does: Hawtio sends the token from the
                // XSRF-TOKEN cookie in X-XSRF-TOKEN. The login form has none to check (LoggedInCsrfCookies).
                .csrf(csrf -> csrf
                        .csrfTokenRepository(csrfTokens)
                        .csrfTokenRequestHandler(new SinglePageAppCsrfTokens())
                        .ignoringRequestMatchers(basic, path.matcher(HttpMethod.POST, "/login")))
                .addFilterBefore(new SameOriginOnly(), CsrfFilter.class)
                // Before both password checks: a throttled address costs no bcrypt.
                .addFilterBefore(new LoginThrottleFilter(loginThrottle, clientAddresses),
                        UsernamePasswordAuthenticationFilter.class)
                .addFilterAfter(new CsrfCookieFilter(), BasicAuthenticationFilter.class);
        return http.build();
    }

    /**
     * 403, not 405: Hawtio finds Jolokia by a GET of its URL and takes a 401 or 403 (but not a 405) for "an agent is
     * there". Answered as problem+json by {@link ProblemReportValve}.
     */
    private static void postOnly(HttpServletRequest request, HttpServletResponse response, AccessDeniedException denied)
            throws IOException {
        response.setHeader("Allow", "POST");
        request.setAttribute(ProblemReportValve.DETAIL_ATTRIBUTE, "Jolokia takes POST only");
        response.sendError(HttpServletResponse.SC_FORBIDDEN);
    }

    private static BasicAuthenticationEntryPoint basicEntryPoint() {
        BasicAuthenticationEntryPoint entryPoint = new BasicAuthenticationEntryPoint();
        entryPoint.setRealmName(REALM);
        entryPoint.afterPropertiesSet();
        return entryPoint;
    }

    /**
     * The token as a JavaScript client sends it (the cookie's value in a header) or as a form does (masked in the
     * page against BREACH), as Spring Security's reference describes for single-page applications.
     */
    static final class SinglePageAppCsrfTokens extends CsrfTokenRequestAttributeHandler {

        private final XorCsrfTokenRequestAttributeHandler masked = new XorCsrfTokenRequestAttributeHandler();

        @Override
        public void handle(HttpServletRequest request, HttpServletResponse response, Supplier<CsrfToken> token) {
            masked.handle(request, response, token);
        }

        @Override
        public String resolveCsrfTokenValue(HttpServletRequest request, CsrfToken token) {
            if (StringUtils.hasText(request.getHeader(token.getHeaderName()))) {
                return super.resolveCsrfTokenValue(request, token);
            }
            return masked.resolveCsrfTokenValue(request, token);
        }
    }

    /** Loads the deferred token, so the XSRF-TOKEN cookie is there before Hawtio's first POST. */
    static final class CsrfCookieFilter extends OncePerRequestFilter {

        @Override
        protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
                throws ServletException, IOException {
            CsrfToken token = (CsrfToken) request.getAttribute(CsrfToken.class.getName());
            if (token != null) {
                token.getToken();
            }
            chain.doFilter(request, response);
        }
    }
}
