package io.seckill.operator;

import io.seckill.api.ClientAddresses;
import io.seckill.api.HttpRequests;
import io.seckill.refusal.Reason;
import io.seckill.refusal.Refusal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.camel.Exchange;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.authentication.dao.DaoAuthenticationProvider;
import org.springframework.security.core.AuthenticationException;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.stereotype.Component;

/**
 * The first step of every admin verb (creating a voucher): the operator's login, as HTTP Basic, checked in the route
 * because the API is outside Spring Security's filter chain on both engines (and Netty never reaches it). While no
 * operator password is set, only requests from this host ({@link LoopbackOnly}).
 *
 * <p>The password is checked by Spring Security against the operator's stored (bcrypt) password, about 100 ms of CPU.
 * The last header that passed is remembered by its SHA-256, so a script creating vouchers pays that once, not per
 * request; a wrong password is checked in full every time, until its client address has failed too often
 * ({@link LoginThrottle}): then it is refused 429 RATE_LIMITED without a check.
 */
@Component("adminAccess")
public class AdminAccess {

    /** The challenge Spring Security's own Basic login answers with on the management URLs. */
    static final String CHALLENGE = "Basic realm=\"" + OperatorSecurityConfiguration.REALM + "\"";
    private static final String BASIC = "Basic ";

    private final boolean passwordSet;
    private final LoopbackOnly loopbackOnly;
    private final AuthenticationProvider logins;
    private final LoginThrottle throttle;
    private final ClientAddresses clientAddresses;
    private final AtomicReference<byte[]> lastVerified = new AtomicReference<>();

    public AdminAccess(OperatorProperties operator, UserDetailsService operatorUsers, LoopbackOnly loopbackOnly,
            LoginThrottle throttle, ClientAddresses clientAddresses) {
        this.passwordSet = operator.canLogIn();
        this.loopbackOnly = loopbackOnly;
        this.logins = new DaoAuthenticationProvider(operatorUsers);
        this.throttle = throttle;
        this.clientAddresses = clientAddresses;
    }

    /**
     * @throws Refusal 401 without the operator's login, 403 from another host while there is no password, 429
     *     from an address with too many failed logins
     */
    public void check(Exchange exchange) {
        if (!passwordSet) {
            loopbackOnly.require(exchange, "Admin verbs are accepted from this host only while no operator password "
                    + "is set (seckill.operator.password)");
            return;
        }
        String authorization = HttpRequests.header(exchange, "Authorization")
                .orElseThrow(() -> unauthorized("This needs the operator's login (HTTP Basic)"));
        byte[] digest = sha256(authorization);
        if (MessageDigest.isEqual(digest, lastVerified.get())) {
            return;
        }
        String address = clientAddresses.of(exchange);
        long retryAfter = throttle.retryAfterSeconds(address);
        if (retryAfter > 0) {
            throw new Refusal(Reason.RATE_LIMITED, throttle.refusal(address, retryAfter), retryAfter);
        }
        try {
            verify(authorization);
        } catch (Refusal wrong) {
            throttle.failed(address);
            throw wrong;
        }
        throttle.succeeded(address);
        lastVerified.set(digest);
    }

    private void verify(String authorization) {
        if (!authorization.regionMatches(true, 0, BASIC, 0, BASIC.length())) {
            throw unauthorized("Only HTTP Basic is accepted");
        }
        String credentials;
        try {
            credentials = new String(Base64.getDecoder().decode(authorization.substring(BASIC.length()).trim()),
                    StandardCharsets.UTF_8);
        } catch (IllegalArgumentException notBase64) {
            throw unauthorized("The Basic credentials are not Base64");
        }
        int colon = credentials.indexOf(':');
        if (colon < 0) {
            throw unauthorized("The Basic credentials are not user:password");
        }
        try {
            logins.authenticate(UsernamePasswordAuthenticationToken.unauthenticated(credentials.substring(0, colon),
                    credentials.substring(colon + 1)));
        } catch (AuthenticationException wrong) {
            throw unauthorized("Wrong user name or password");
        }
    }

    private static Refusal unauthorized(String detail) {
        return Refusal.notLoggedIn(detail, CHALLENGE);
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("Every JVM has SHA-256", e);
        }
    }
}
