package io.seckill.operator;

import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

/**
 * The operator's login for the console (Hawtio), Jolokia and the actuator beyond liveness and readiness.
 *
 * @param username the operator's user name
 * @param password the operator's password, in plain text or already encoded as Spring Security stores one
 *                 ({@code {bcrypt}$2a$…}); none means nobody can log in and the console and Jolokia are off
 */
@Validated
@ConfigurationProperties("seckill.operator")
public record OperatorProperties(@NotBlank @DefaultValue("operator") String username, String password) {

    /** Whether a password is configured, and so whether the console and Jolokia are on. */
    public boolean canLogIn() {
        return hasPassword(password);
    }

    static boolean hasPassword(String password) {
        return password != null && !password.isBlank();
    }
}
