package io.seckill.launch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ServiceProcess;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code java -jar} on the packaged jar, as an operator runs it: given no JVM option, the service runs with the
 * recommended ones in a JVM of its own, which the started one waits for (a SIGTERM to it stops the service
 * gracefully, a SIGKILL of it stops the service too); given any JVM option, the service runs in the JVM started,
 * with exactly those.
 */
class JarLaunchIntegrationTests {

    private static final Path WORK = Path.of("target", "jar-launch", UUID.randomUUID().toString());
    private static final Duration START = Duration.ofMinutes(3);
    private static final String OLD_GENERATION = "id=\"G1 Old Gen\"";

    ServiceProcess launcher;

    /**
     * A test that failed midway: SIGTERM first, so the service stops its embedded redis-server (a SIGKILLed JVM
     * leaves it running), then SIGKILL whatever is left.
     */
    @AfterEach
    void stopLeftovers() {
        if (launcher != null) {
            List<ProcessHandle> services = javaChildren(launcher.pid());
            launcher.stop(Duration.ofSeconds(60));
            launcher.close();
            services.forEach(ProcessHandle::destroyForcibly);
        }
    }

    @Test
    void noJvmOptionRunsTheServiceWithTheRecommendedOnesAndSigtermStopsItGracefully() throws Exception {
        RecommendedJvm.Settings recommended = RecommendedJvm.Settings.read().orElseThrow();
        launcher = ServiceProcess.startJar("jar-recommended", WORK.resolve("recommended"), Map.of(), List.of())
                .awaitHealthy(START);

        ProcessHandle service = theServiceJvm();
        assertThat(arguments(service)).as("the service's JVM, as ps shows it")
                .containsSubsequence(recommended.options())
                .contains("-D" + RecommendedJvm.LAUNCHER_PID + "=" + launcher.pid(), "-jar");
        assertThat(environment(service)).contains(RecommendedJvm.MALLOC_ARENA_MAX + "=" + recommended.mallocArenaMax());
        assertThat(log()).contains("with PID " + service.pid());
        assertThat(launcher.api().prometheus().sum("jvm_memory_max_bytes", OLD_GENERATION))
                .as("the heap the service reports").isEqualTo(maxHeapBytes(recommended.options()));

        assertThat(launcher.stop(Duration.ofSeconds(60))).as("the launcher exits after SIGTERM").isTrue();
        assertThat(service.isAlive()).isFalse();
        assertThat(log()).contains("Apache Camel 4.17.0 (seckill) shutdown in");
        assertThat(launcher.exitValue()).isEqualTo(128 + 15);
    }

    @Test
    void aKilledLauncherStopsTheService() throws Exception {
        launcher = ServiceProcess.startJar("jar-launcher-killed", WORK.resolve("killed"), Map.of(), List.of())
                .awaitHealthy(START);
        ProcessHandle service = theServiceJvm();

        launcher.kill();

        await().atMost(Duration.ofSeconds(60)).until(() -> !service.isAlive());
        assertThat(log()).contains("The launcher (pid " + launcher.pid() + ") is gone; the service stops")
                .contains("Apache Camel 4.17.0 (seckill) shutdown in");
    }

    @Test
    void anyJvmOptionRunsTheServiceInTheJvmStartedWithExactlyThose() throws Exception {
        launcher = ServiceProcess.startJar("jar-own-options", WORK.resolve("own"), Map.of(),
                List.of("-Xmx200m", "-XX:+UseG1GC", "-XX:TieredStopAtLevel=1")).awaitHealthy(START);

        assertThat(javaChildren(launcher.pid())).as("no second JVM").isEmpty();
        assertThat(log()).contains("with PID " + launcher.pid()).doesNotContain("recommended ones");
        assertThat(launcher.api().prometheus().sum("jvm_memory_max_bytes", OLD_GENERATION))
                .isEqualTo(200.0 * 1024 * 1024);
        assertThat(launcher.stop(Duration.ofSeconds(60))).as("the service exits after SIGTERM").isTrue();
    }

    private ProcessHandle theServiceJvm() {
        List<ProcessHandle> services = javaChildren(launcher.pid());
        assertThat(services).as("the launcher's one child JVM").hasSize(1);
        return services.get(0);
    }

    /** Child processes that are JVMs (the service's embedded redis-server is a child of the service's JVM). */
    private static List<ProcessHandle> javaChildren(long pid) {
        return ProcessHandle.of(pid).stream().flatMap(ProcessHandle::children)
                .filter(child -> child.info().command().map(command -> command.endsWith("/java")).orElse(false))
                .toList();
    }

    private static List<String> arguments(ProcessHandle process) {
        return process.info().arguments().map(Arrays::asList).orElseThrow();
    }

    /** /proc/PID/environ: the variables the process was started with, NUL-separated. */
    private static List<String> environment(ProcessHandle process) throws IOException {
        String environ = Files.readString(Path.of("/proc", Long.toString(process.pid()), "environ"),
                StandardCharsets.UTF_8);
        return List.of(environ.split("\0"));
    }

    private String log() throws IOException {
        return Files.readString(launcher.log());
    }

    /** -Xmx<n>m of the options, in bytes. */
    private static double maxHeapBytes(List<String> options) {
        String xmx = options.stream().filter(option -> option.startsWith("-Xmx")).findFirst().orElseThrow();
        assertThat(xmx).endsWith("m");
        return Double.parseDouble(xmx.substring(4, xmx.length() - 1)) * 1024 * 1024;
    }
}
