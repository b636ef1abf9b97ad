package io.seckill.operator;

import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Without an operator's password the console and Jolokia are not there at all (404), rather than there and
 * locked: endpoints that nobody can log in to are only surface. Decided before the context starts, because Hawtio's
 * and Jolokia's auto-configurations read the endpoints' access then. {@link OperatorSecurityConfiguration} says so
 * in the log.
 */
public class OperatorConsoleSwitch implements EnvironmentPostProcessor {

    static final String PASSWORD = "seckill.operator.password";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (!OperatorProperties.hasPassword(environment.getProperty(PASSWORD))) {
            environment.getPropertySources().addFirst(new MapPropertySource("operatorConsoleOff", Map.of(
                    "management.endpoint.hawtio.access", "none",
                    "management.endpoint.jolokia.access", "none")));
        }
    }
}
