package io.seckill.operator;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The operator's login for the console (Hawtio), Jolokia, the actuator beyond liveness and readiness, and the API's
 * admin verbs.
 *
 * @param username the operator's user name
 * @param password the operator's password, in plain text or already encoded as Spring Security stores one
 *                 ({@code {bcrypt}$2a$…}); none means nobody can log in, the console and Jolokia are off and admin
 *                 verbs are accepted from this host only
 * @param maxSessions how many console logins (HTTP sessions) may be open at once
 * @param loginThrottle how failed logins slow down the address they come from
 */
@Validated
@ConfigurationProperties("seckill.operator")
public record OperatorProperties(@NotBlank @DefaultValue("operator") String username, String password,
        @Min(1) @DefaultValue("10") int maxSessions, @NotNull @Valid @DefaultValue LoginThrottle loginThrottle) {

    /** Whether a password is configured, and so whether the console and Jolokia are on and admin verbs need it. */
    public boolean canLogIn() {
        return hasPassword(password);
    }

    static boolean hasPassword(String password) {
        return password != null && !password.isBlank();
    }

    /**
     * @param maxFailures failed logins from one client address within {@code window} after which its further
     *     attempts are refused (429) until the window has passed; 0 switches the throttle off
     * @param window how long the failures of an address are counted, from its first
     */
    public record LoginThrottle(@Min(0) @DefaultValue("5") int maxFailures,
            @NotNull @DefaultValue("1m") Duration window) {

        public LoginThrottle {
            if (window != null && window.compareTo(Duration.ofSeconds(1)) < 0) {
                throw new IllegalArgumentException("seckill.operator.login-throttle.window must be at least 1s, got "
                        + window);
            }
        }

        public boolean enabled() {
            return maxFailures > 0;
        }
    }
}
