package io.seckill.launch;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class RecommendedJvmTests {

    private static final List<String> RECOMMENDED = List.of("-Xmx160m", "-XX:+UseG1GC");

    @Test
    void javaJarWithoutJvmOptionsRunsTheServiceWithTheRecommendedOnesAndTheSameArguments() {
        assertThat(RecommendedJvm.serviceCommand(List.of(), List.of("-jar", "app.jar", "--server.port=8080"),
                "/jdk/bin/java", RECOMMENDED, 42)).contains(List.of("/jdk/bin/java", "-Xmx160m", "-XX:+UseG1GC",
                        "-Dseckill.launcher.pid=42", "-jar", "app.jar", "--server.port=8080"));
    }

    @Test
    void anyJvmOptionFromAnySourceKeepsTheServiceInThisJvm() {
        // -Xmx on the command line, or a system property from JDK_JAVA_OPTIONS: the input arguments hold both.
        assertThat(RecommendedJvm.serviceCommand(List.of("-Xmx512m"), List.of("-Xmx512m", "-jar", "app.jar"),
                "java", RECOMMENDED, 42)).isEmpty();
        assertThat(RecommendedJvm.serviceCommand(List.of("-Dcom.sun.management.jmxremote.port=9010"),
                List.of("-jar", "app.jar"), "java", RECOMMENDED, 42)).isEmpty();
    }

    @Test
    void aClassPathLaunchOrUnknownArgumentsKeepTheServiceInThisJvm() {
        assertThat(RecommendedJvm.serviceCommand(List.of(), List.of("-cp", "classes", "io.seckill.Application"),
                "java", RECOMMENDED, 42)).isEmpty();
        assertThat(RecommendedJvm.serviceCommand(List.of(), List.of(), "java", RECOMMENDED, 42)).isEmpty();
    }

    @Test
    void theBuildWritesThePomsOptionsForTheLauncher() {
        RecommendedJvm.Settings settings = RecommendedJvm.Settings.read().orElseThrow();
        assertThat(settings.options()).isNotEmpty().allMatch(option -> option.startsWith("-"))
                .anyMatch(option -> option.startsWith("-Xmx"));
        assertThat(settings.mallocArenaMax()).matches("\\d+");
    }
}
