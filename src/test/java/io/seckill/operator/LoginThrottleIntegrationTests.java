package io.seckill.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.api.Problem;
import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.SeckillIntegrationTest;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * Failed logins are throttled per client address at every door that checks the operator's password: HTTP Basic
 * on the actuator, the login form, HTTP Basic on the admin verbs. The test profile switches the throttle off; here
 * it is 5 failures within 4 s. 127.0.0.1 is a trusted proxy, so each test is a client of its own by
 * X-Forwarded-For. That bcrypt is not run while refused is {@link AdminAccessTests}' to count.
 */
@SeckillIntegrationTest
@TestPropertySource(properties = {
    "seckill.operator.login-throttle.max-failures=" + LoginThrottleIntegrationTests.MAX_FAILURES,
    "seckill.operator.login-throttle.window=4s",
    "seckill.rate-limit.trusted-proxies=127.0.0.1"
})
class LoginThrottleIntegrationTests {

    static final int MAX_FAILURES = 5;
    private static final String VOUCHER = "{\"title\":\"Throttled\",\"stock\":5}";

    @Autowired
    ApiClient api;

    @Autowired
    OperatorProperties operator;

    @Test
    void theSixthWrongBasicLoginIsRefusedUntilTheWindowHasPassed() {
        String client = "203.0.113.21";
        for (int i = 0; i < MAX_FAILURES; i++) {
            assertThat(metrics(client, "guess").status()).isEqualTo(401);
        }

        assertThrottled(metrics(client, "guess"), client);
        // The right password too: nothing is checked while the address is throttled.
        assertThrottled(metrics(client, operator.password()), client);
        // Another client is not.
        assertThat(metrics("203.0.113.22", operator.password()).status()).isEqualTo(200);

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(metrics(client, operator.password()).status()).isEqualTo(200));
    }

    @Test
    void theLoginFormAndTheAdminVerbsShareTheCount() {
        String client = "203.0.113.23";
        for (int i = 0; i < MAX_FAILURES - 1; i++) {
            Answer form = loginForm(client, "guess");
            assertThat(form.status()).isEqualTo(302);
            assertThat(form.header("Location")).endsWith("/login?error");
        }
        assertThat(createVoucher(client, "guess").status()).isEqualTo(401);

        assertThrottled(loginForm(client, operator.password()), client);
        assertThrottled(createVoucher(client, operator.password()), client);
        assertThrottled(metrics(client, operator.password()), client);
    }

    @Test
    void aLoginThatSucceedsForgetsTheFailures() {
        String client = "203.0.113.24";
        for (int round = 0; round < 3; round++) {
            for (int i = 0; i < MAX_FAILURES - 1; i++) {
                assertThat(metrics(client, "guess").status()).isEqualTo(401);
            }
            assertThat(metrics(client, operator.password()).status()).isEqualTo(200);
        }
    }

    private Answer metrics(String client, String password) {
        return api.send(HttpRequest.newBuilder(URI.create(api.url("/actuator/prometheus")))
                .header("X-Forwarded-For", client)
                .header("Authorization", basic(password)).GET());
    }

    private Answer createVoucher(String client, String password) {
        return api.send(HttpRequest.newBuilder(URI.create(api.url("/api/vouchers")))
                .header("X-Forwarded-For", client)
                .header("Authorization", basic(password))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(VOUCHER)));
    }

    private Answer loginForm(String client, String password) {
        return api.send(HttpRequest.newBuilder(URI.create(api.url("/login")))
                .header("X-Forwarded-For", client)
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("username=" + operator.username() + "&password="
                        + URLEncoder.encode(password, StandardCharsets.UTF_8))));
    }

    private String basic(String password) {
        return "Basic " + Base64.getEncoder().encodeToString((operator.username() + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
    }

    private static void assertThrottled(Answer answer, String client) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(429);
        assertThat(answer.header("Content-Type")).startsWith(Problem.MEDIA_TYPE);
        assertThat(answer.code()).isEqualTo("RATE_LIMITED");
        assertThat(answer.json().get("detail").asText()).contains(client);
        assertThat(Long.parseLong(answer.header("Retry-After"))).isBetween(1L, 4L);
    }
}
