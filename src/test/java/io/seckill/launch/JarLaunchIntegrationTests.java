package io.seckill.launch;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.support.ServiceProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code java -jar} on the packaged jar, as an operator runs it: one JVM, the one started, with exactly the options
 * it was given; the recommended ones come from the argument file {@code jvm.options}, and a service started without
 * any heap option says so in one line.
 */
class JarLaunchIntegrationTests {

    private static final Path WORK = Path.of("target", "jar-launch", UUID.randomUUID().toString());
    private static final Path JVM_OPTIONS = Path.of("jvm.options").toAbsolutePath();
    private static final Duration START = Duration.ofMinutes(3);
    private static final String OLD_GENERATION = "id=\"G1 Old Gen\"";
    private static final String DEFAULT_HEAP = "Running on the JVM's default heap";

    ServiceProcess service;

    /**
     * A test that failed midway: SIGTERM first, so the service stops its embedded redis-server (a SIGKILLed JVM
     * leaves it running), then SIGKILL whatever is left.
     */
    @AfterEach
    void stopLeftovers() {
        if (service != null) {
            service.stop(Duration.ofSeconds(60));
            service.close();
        }
    }

    @Test
    void theArgumentFileGivesTheRecommendedOptionsToTheOneJvmAndSigtermStopsItGracefully() throws Exception {
        service = ServiceProcess.startJar("jar-recommended", WORK.resolve("recommended"), Map.of(),
                List.of("@" + JVM_OPTIONS)).awaitHealthy(START);

        assertThat(javaChildren(service.pid())).as("no second JVM").isEmpty();
        assertThat(log()).contains("with PID " + service.pid()).doesNotContain(DEFAULT_HEAP);
        assertThat(service.api().prometheus().sum("jvm_memory_max_bytes", OLD_GENERATION))
                .as("the heap the service reports: jvm.options' -Xmx").isEqualTo(maxHeapBytes());

        assertThat(service.stop(Duration.ofSeconds(60))).as("the service exits after SIGTERM").isTrue();
        assertThat(log()).contains("Apache Camel 4.17.0 (seckill) shutdown in");
        assertThat(service.exitValue()).isEqualTo(128 + 15);
    }

    @Test
    void noHeapOptionRunsOnTheDefaultHeapAndSaysSoOnce() throws Exception {
        service = ServiceProcess.startJar("jar-default-heap", WORK.resolve("default"), Map.of(), List.of())
                .awaitHealthy(START);

        assertThat(javaChildren(service.pid())).as("no second JVM").isEmpty();
        assertThat(log().lines().filter(line -> line.contains(DEFAULT_HEAP)))
                .singleElement().asString().contains("WARN").contains("java @jvm.options -jar");
        assertThat(service.stop(Duration.ofSeconds(60))).as("the service exits after SIGTERM").isTrue();
    }

    /** Child processes that are JVMs (the service's embedded redis-server is a child of the service's JVM). */
    private static List<ProcessHandle> javaChildren(long pid) {
        return ProcessHandle.of(pid).stream().flatMap(ProcessHandle::children)
                .filter(child -> child.info().command().map(command -> command.endsWith("/java")).orElse(false))
                .toList();
    }

    private String log() throws IOException {
        return Files.readString(service.log());
    }

    /** The -Xmx<n>m line of jvm.options, in bytes. */
    private static double maxHeapBytes() throws IOException {
        String xmx = Files.readAllLines(JVM_OPTIONS).stream().map(String::strip)
                .filter(option -> option.startsWith("-Xmx")).findFirst().orElseThrow();
        assertThat(xmx).endsWith("m");
        return Double.parseDouble(xmx.substring(4, xmx.length() - 1)) * 1024 * 1024;
    }
}
