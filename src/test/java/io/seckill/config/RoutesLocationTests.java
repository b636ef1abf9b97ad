package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;

/** Where the routes come from: a folder on disk when there is one, else the jar's copy. */
class RoutesLocationTests {

    private static final String INCLUDE_PATTERN = "camel.main.routes-include-pattern";
    private static final String RELOAD_DIRECTORY = "camel.main.routes-reload-directory";

    @TempDir
    Path folder;

    @Test
    void folderOnDiskGivesTheRoutesAndIsWatchedForReloads() {
        StandardEnvironment environment = environment(Map.of(RoutesLocation.DIR_PROPERTY, folder.toString()));

        new RoutesLocation().postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty(INCLUDE_PATTERN)).isEqualTo("file:" + folder + "/*.yaml");
        assertThat(environment.getProperty(RELOAD_DIRECTORY)).isEqualTo(folder.toString());
    }

    @Test
    void withoutTheFolderTheJarsCopyIsUsed() {
        StandardEnvironment environment = environment(Map.of(RoutesLocation.DIR_PROPERTY,
                folder.resolve("missing").toString()));

        new RoutesLocation().postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty(INCLUDE_PATTERN)).isEqualTo("classpath:routes/*.yaml");
    }

    @Test
    void operatorsOwnIncludePatternWins() {
        StandardEnvironment environment = environment(Map.of(RoutesLocation.DIR_PROPERTY, folder.toString(),
                INCLUDE_PATTERN, "file:/etc/seckill/*.yaml"));

        new RoutesLocation().postProcessEnvironment(environment, new SpringApplication());

        assertThat(environment.getProperty(INCLUDE_PATTERN)).isEqualTo("file:/etc/seckill/*.yaml");
        assertThat(environment.getProperty(RELOAD_DIRECTORY)).isNull();
    }

    private static StandardEnvironment environment(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return environment;
    }
}
