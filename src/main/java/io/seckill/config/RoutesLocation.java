package io.seckill.config;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.env.EnvironmentPostProcessor;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/**
 * Routes come from the {@code routes/} folder on disk when there is one (an operator edits them without a
 * rebuild), otherwise from the copy packaged in the jar. {@code seckill.routes.dir} names another folder; an
 * explicit {@code camel.main.routes-include-pattern} wins over both.
 */
public class RoutesLocation implements EnvironmentPostProcessor {

    static final String DIR_PROPERTY = "seckill.routes.dir";
    private static final String INCLUDE_PATTERN = "camel.main.routes-include-pattern";
    private static final String RELOAD_DIRECTORY = "camel.main.routes-reload-directory";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        if (environment.containsProperty(INCLUDE_PATTERN)) {
            return;
        }
        Path dir = Path.of(environment.getProperty(DIR_PROPERTY, "routes")).toAbsolutePath().normalize();
        Map<String, Object> properties = new HashMap<>();
        if (Files.isDirectory(dir)) {
            properties.put(INCLUDE_PATTERN, "file:" + dir + "/*.yaml");
            properties.put(RELOAD_DIRECTORY, dir.toString());
        } else {
            properties.put(INCLUDE_PATTERN, "classpath:routes/*.yaml");
        }
        environment.getPropertySources().addLast(new MapPropertySource("seckillRoutesLocation", properties));
    }
}
