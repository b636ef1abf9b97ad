package io.seckill.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.seckill.api.ClientAddresses;
import io.seckill.ratelimit.RateLimitProperties;
import io.seckill.refusal.Reason;
import io.seckill.refusal.Refusal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.component.netty.NettyConstants;
import org.apache.camel.component.netty.http.NettyHttpMessage;
import org.apache.camel.impl.DefaultCamelContext;
import org.apache.camel.support.DefaultExchange;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.security.core.userdetails.User;
import org.springframework.security.core.userdetails.UserDetails;
import org.springframework.security.core.userdetails.UserDetailsService;
import org.springframework.security.crypto.factory.PasswordEncoderFactories;
import org.springframework.security.provisioning.InMemoryUserDetailsManager;

/**
 * Who may run an admin verb, decided on requests as netty-http hands them to a route (the peer in its own header,
 * the HTTP headers in Netty's request): the integration tests can only call from this machine.
 */
class AdminAccessTests {

    /** Three failures within 2 s; no trusted proxy, so the peer is the client address. */
    private static final OperatorProperties.LoginThrottle THROTTLE =
            new OperatorProperties.LoginThrottle(3, Duration.ofSeconds(2));
    private static final RateLimitProperties.Limit OFF = new RateLimitProperties.Limit(0, 1);
    private static final ClientAddresses CLIENT_ADDRESSES = new ClientAddresses(new RateLimitProperties(
            OFF, OFF, OFF, List.of()));

    private final CamelContext camel = new DefaultCamelContext();
    private final AtomicInteger passwordChecks = new AtomicInteger();

    @AfterEach
    void close() throws Exception {
        camel.close();
    }

    @Test
    void aLoginThatPassedIsRememberedAWrongOneIsCheckedEveryTime() {
        AdminAccess access = withPassword("s3cret");

        access.check(request("127.0.0.1", Map.of("Authorization", basic("operator", "s3cret"))));
        access.check(request("192.0.2.1", Map.of("Authorization", basic("operator", "s3cret"))));
        assertThat(passwordChecks).as("bcrypt once for the same header").hasValue(1);

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> access.check(request("127.0.0.1",
                    Map.of("Authorization", basic("operator", "guess")))))
                    .isInstanceOfSatisfying(Refusal.class, refused -> {
                        assertThat(refused.reason()).isEqualTo(Reason.NOT_LOGGED_IN);
                        assertThat(refused.challenge()).isEqualTo("Basic realm=\"seckill operator\"");
                    });
        }
        assertThat(passwordChecks).hasValue(3);
        access.check(request("127.0.0.1", Map.of("Authorization", basic("operator", "s3cret"))));
        assertThat(passwordChecks).as("the right login is still remembered").hasValue(3);
    }

    @Test
    void anAddressWithTooManyFailuresIsRefusedWithoutAPasswordCheckUntilTheWindowHasPassed() {
        AdminAccess access = withPassword("s3cret");
        for (int i = 0; i < THROTTLE.maxFailures(); i++) {
            assertRefused(access, request("192.0.2.7", Map.of("Authorization", basic("operator", "guess" + i))),
                    Reason.NOT_LOGGED_IN);
        }
        assertThat(passwordChecks).hasValue(THROTTLE.maxFailures());

        // Wrong or right, the address is refused without bcrypt while its window lasts.
        for (String password : List.of("guess", "s3cret")) {
            Refusal refused = assertRefused(access, request("192.0.2.7",
                    Map.of("Authorization", basic("operator", password))), Reason.RATE_LIMITED);
            assertThat(refused.retryAfterSeconds()).isBetween(1L, THROTTLE.window().toSeconds());
            assertThat(refused.getMessage()).contains("192.0.2.7");
        }
        assertThat(passwordChecks).as("no password check while throttled").hasValue(THROTTLE.maxFailures());
        // Another address is not.
        access.check(request("192.0.2.8", Map.of("Authorization", basic("operator", "s3cret"))));

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(200)).untilAsserted(() ->
                assertThatCode(() -> access.check(request("192.0.2.7",
                        Map.of("Authorization", basic("operator", "s3cret", "again")))))
                        .doesNotThrowAnyException());
    }

    @Test
    void aLoginThatSucceedsForgetsTheAddressesFailures() {
        AdminAccess access = withPassword("s3cret");
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < THROTTLE.maxFailures() - 1; i++) {
                assertRefused(access, request("192.0.2.9", Map.of("Authorization", basic("operator", "guess" + i))),
                        Reason.NOT_LOGGED_IN);
            }
            // Another spelling of the right login each round: a remembered one would not reach the throttle.
            access.check(request("192.0.2.9", Map.of("Authorization", basic("operator", "s3cret", "round" + round))));
        }
    }

    @Test
    void onlyTheRequestsOwnHeaderCountsNotACamelHeaderOfThatName() {
        AdminAccess access = withPassword("s3cret");
        Exchange exchange = request("127.0.0.1", Map.of());
        // As a query parameter ?Authorization=… arrives.
        exchange.getIn().setHeader("Authorization", basic("operator", "s3cret"));

        assertThatThrownBy(() -> access.check(exchange)).isInstanceOfSatisfying(Refusal.class,
                refused -> assertThat(refused.reason()).isEqualTo(Reason.NOT_LOGGED_IN));
    }

    @Test
    void withoutAPasswordOnlyThisHostIsAccepted() {
        AdminAccess access = new AdminAccess(settings(null), new InMemoryUserDetailsManager(), new LoopbackOnly(),
                new LoginThrottle(THROTTLE), CLIENT_ADDRESSES);

        for (String local : List.of("127.0.0.1", "127.0.0.2", "::1")) {
            assertThatCode(() -> access.check(request(local, Map.of()))).as(local).doesNotThrowAnyException();
        }
        for (String other : List.of("192.0.2.1", "10.0.0.1", "2001:db8::1")) {
            assertLoopbackOnly(access, request(other, Map.of()));
        }
        // A proxy on this host passes on someone else's request.
        assertLoopbackOnly(access, request("127.0.0.1", Map.of("X-Forwarded-For", "198.51.100.7")));
        assertLoopbackOnly(access, request("127.0.0.1", Map.of("Forwarded", "for=198.51.100.7")));
    }

    private static void assertLoopbackOnly(AdminAccess access, Exchange exchange) {
        assertThatThrownBy(() -> access.check(exchange)).isInstanceOfSatisfying(Refusal.class,
                refused -> assertThat(refused.reason()).isEqualTo(Reason.LOOPBACK_ONLY));
    }

    private AdminAccess withPassword(String password) {
        UserDetails operator = User.withUsername("operator")
                .password(PasswordEncoderFactories.createDelegatingPasswordEncoder().encode(password))
                .roles(OperatorSecurityConfiguration.ROLE).build();
        InMemoryUserDetailsManager users = new InMemoryUserDetailsManager(operator);
        UserDetailsService counting = username -> {
            passwordChecks.incrementAndGet();
            return users.loadUserByUsername(username);
        };
        return new AdminAccess(settings(password), counting, new LoopbackOnly(), new LoginThrottle(THROTTLE),
                CLIENT_ADDRESSES);
    }

    private static OperatorProperties settings(String password) {
        return new OperatorProperties("operator", password, 10, THROTTLE);
    }

    private Exchange request(String peer, Map<String, String> headers) {
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, "/api/vouchers");
        headers.forEach(request.headers()::set);
        NettyHttpMessage message = new NettyHttpMessage(camel, request, null);
        try {
            message.setHeader(NettyConstants.NETTY_REMOTE_ADDRESS,
                    new InetSocketAddress(InetAddress.getByName(peer), 40000));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(peer, e);
        }
        Exchange exchange = new DefaultExchange(camel);
        exchange.setIn(message);
        return exchange;
    }

    private static Refusal assertRefused(AdminAccess access, Exchange exchange, Reason code) {
        try {
            access.check(exchange);
        } catch (Refusal refused) {
            assertThat(refused.reason()).isEqualTo(code);
            return refused;
        }
        throw new AssertionError("Not refused: expected " + code);
    }

    private static String basic(String username, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((username + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
    }

    /** The same login in another header: Base64 with a trailing space, which decodes to the same credentials. */
    private static String basic(String username, String password, String spelling) {
        return basic(username, password) + " ".repeat(1 + Math.abs(spelling.hashCode() % 5));
    }
}
