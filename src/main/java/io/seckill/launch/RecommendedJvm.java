package io.seckill.launch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.concurrent.CompletableFuture;
import org.slf4j.LoggerFactory;

/**
 * {@code java -jar seckill-camel.jar} given no JVM option runs the service with the recommended ones (README, "JVM
 * options"; the pom's {@code service.jvm-options}), as {@code mvn spring-boot:run} does. A jar cannot carry JVM
 * options, so the JVM that was started, before it loads anything of the service, starts the service in a second
 * JVM with them and with {@code MALLOC_ARENA_MAX} (unless the environment sets it), hands it its own arguments,
 * standard streams and working directory, and lives exactly as long as it does: its exit status is the service's,
 * a SIGTERM or SIGINT to it stops the service gracefully, and a service whose launcher is gone (killed with
 * SIGKILL) stops on its own.
 *
 * <p>Any JVM option, on the command line or in {@code JDK_JAVA_OPTIONS} / {@code JAVA_TOOL_OPTIONS}, means the
 * operator chose: the service then runs in the JVM that was started, with exactly those options (a second JVM
 * would also get options meant for one, such as a JMX port or an agent). So do runs that are not {@code -jar}
 * (a class path and a main class: the IDE, the tests).
 */
public final class RecommendedJvm {

    /** Set on the service's JVM: the launcher's pid, which the service watches. */
    static final String LAUNCHER_PID = "seckill.launcher.pid";
    static final String MALLOC_ARENA_MAX = "MALLOC_ARENA_MAX";
    private static final String SETTINGS = "META-INF/seckill/jvm.properties";

    private RecommendedJvm() {
    }

    /**
     * First thing in {@code main}. Given {@code java -jar} and no JVM option, runs the service in a JVM with the
     * recommended options and exits with its status: it does not return. Otherwise returns, and the service runs in
     * this JVM (which, if a launcher started it, stops when the launcher is gone).
     */
    public static void launchUnlessChosen() {
        stopWhenLauncherGone();
        Optional<Settings> settings = Settings.read();
        if (settings.isEmpty()) {
            return;
        }
        long launcher = ProcessHandle.current().pid();
        Optional<List<String>> command = serviceCommand(ManagementFactory.getRuntimeMXBean().getInputArguments(),
                ProcessHandle.current().info().arguments().map(Arrays::asList).orElse(List.of()),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), settings.get().options(),
                launcher);
        if (command.isEmpty()) {
            return;
        }
        String arenas = System.getenv(MALLOC_ARENA_MAX) == null ? settings.get().mallocArenaMax() : null;
        System.out.printf("seckill-camel: no JVM option given, so the service runs in a JVM of its own with the "
                + "recommended ones: %s%s (this JVM, pid %d, waits for it and passes SIGTERM on; give any JVM option "
                + "to run the service in this JVM with yours)%n", String.join(" ", settings.get().options()),
                arenas == null ? "" : " and " + MALLOC_ARENA_MAX + "=" + arenas, launcher);
        System.exit(run(command.get(), arenas));
    }

    /**
     * The command that runs the service with the recommended options, when this JVM was started as
     * {@code java -jar <jar> [arguments]} with no JVM option; empty when it is to run the service itself.
     *
     * @param jvmOptions this JVM's options, from every source (the runtime MXBean's input arguments)
     * @param arguments  this process's arguments after the java command (empty when unknown)
     */
    static Optional<List<String>> serviceCommand(List<String> jvmOptions, List<String> arguments, String java,
            List<String> recommended, long launcherPid) {
        if (!jvmOptions.isEmpty() || arguments.size() < 2 || !"-jar".equals(arguments.get(0))) {
            return Optional.empty();
        }
        List<String> command = new ArrayList<>();
        command.add(java);
        command.addAll(recommended);
        command.add("-D" + LAUNCHER_PID + "=" + launcherPid);
        command.addAll(arguments);
        return Optional.of(command);
    }

    private static int run(List<String> command, String mallocArenaMax) {
        ProcessBuilder builder = new ProcessBuilder(command).inheritIO();
        if (mallocArenaMax != null) {
            builder.environment().put(MALLOC_ARENA_MAX, mallocArenaMax);
        }
        Process service;
        try {
            service = builder.start();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start the service's JVM: " + command, e);
        }
        // SIGTERM, SIGINT, SIGHUP to this JVM: the service shuts down as it would if it had got the signal itself,
        // and this JVM exits once it has (a shell's Ctrl-C reaches both; the second signal changes nothing).
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            service.destroy();
            waitFor(service);
        }, "seckill-launcher"));
        return waitFor(service);
    }

    /**
     * In the service's JVM, when a launcher started it: the launcher killed (SIGKILL) stops the service too, as
     * SIGTERM would (an operator who kills the process they started means the service). The logger is asked for
     * only then: the launcher itself never starts the logging system.
     */
    private static void stopWhenLauncherGone() {
        String launcher = System.getProperty(LAUNCHER_PID);
        if (launcher == null) {
            return;
        }
        ProcessHandle.of(Long.parseLong(launcher)).map(ProcessHandle::onExit)
                .orElse(CompletableFuture.completedFuture(null))
                .thenRun(() -> {
                    LoggerFactory.getLogger(RecommendedJvm.class)
                            .warn("The launcher (pid {}) is gone; the service stops", launcher);
                    System.exit(1);
                });
    }

    private static int waitFor(Process process) {
        while (true) {
            try {
                return process.waitFor();
            } catch (InterruptedException e) {
                // Nothing here interrupts this thread on purpose; the service's end is what is waited for.
            }
        }
    }

    /** The recommended options and MALLOC_ARENA_MAX, as the build wrote them from the pom. */
    record Settings(List<String> options, String mallocArenaMax) {

        static Optional<Settings> read() {
            try (InputStream in = RecommendedJvm.class.getClassLoader().getResourceAsStream(SETTINGS)) {
                if (in == null) {
                    return Optional.empty();
                }
                Properties properties = new Properties();
                properties.load(in);
                String options = properties.getProperty("options", "").trim();
                // ${...} left in place: the file was not filtered (a build outside Maven); nothing to apply.
                if (options.isEmpty() || options.contains("${")) {
                    return Optional.empty();
                }
                String arenas = properties.getProperty("malloc-arena-max", "").trim();
                return Optional.of(new Settings(List.of(options.split("\\s+")),
                        arenas.isEmpty() || arenas.contains("${") ? null : arenas));
            } catch (IOException e) {
                throw new UncheckedIOException("Could not read " + SETTINGS, e);
            }
        }
    }
}
