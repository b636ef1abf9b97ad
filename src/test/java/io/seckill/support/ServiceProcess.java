package io.seckill.support;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.jar.JarFile;
import java.util.jar.Manifest;

/**
 * The service in a child JVM, started the way an operator starts it ({@code java -cp … io.seckill.Application
 * --key=value …}, or {@code java -jar} on the packaged jar) in a working directory of its own, where its default H2 file {@code ./data/db/seckill} lives.
 * For tests that kill an instance (SIGKILL), stop it (SIGTERM) or run several at once.
 *
 * <p>The child gets the test JVM's class path without the test classes, so it runs exactly the main code, with
 * a small heap. Its output goes to {@code target/service-processes/<name>.log}.
 */
public final class ServiceProcess implements AutoCloseable {

    public static final List<String> DEFAULT_JVM_OPTIONS = List.of("-Xmx256m", "-XX:+UseSerialGC",
            "-XX:TieredStopAtLevel=1", "-XX:+ExitOnOutOfMemoryError");
    private static final Path LOGS = Path.of("target", "service-processes").toAbsolutePath();
    /** Every child runs with an operator login (as a real deployment would), so its metrics can be read. */
    private static final String OPERATOR_PASSWORD = "child-operator-password";

    private final String name;
    private final Process process;
    private final int port;
    private final Path log;
    private final ApiClient api;

    private ServiceProcess(String name, Process process, int port, int managementPort, Path log, String operator,
            String password) {
        this.name = name;
        this.process = process;
        this.port = port;
        this.log = log;
        this.api = new ApiClient("http://127.0.0.1:" + port, "http://127.0.0.1:" + managementPort, operator,
                password);
    }

    /** Starts an instance with {@link #DEFAULT_JVM_OPTIONS}; {@code server.port} is a free port unless given. */
    public static ServiceProcess start(String name, Path workDir, Map<String, String> properties) {
        return start(name, workDir, properties, DEFAULT_JVM_OPTIONS);
    }

    /** Starts an instance, its classes mapped from {@link ChildClassArchive} (made on the first start). */
    public static ServiceProcess start(String name, Path workDir, Map<String, String> properties,
            List<String> jvmOptions) {
        ChildClassArchive archive = ChildClassArchive.get(mainClassPath(), DEFAULT_JVM_OPTIONS);
        List<String> options = new ArrayList<>(archive.jvmOptions());
        options.addAll(jvmOptions);
        return startOn(archive.classPath(), name, workDir, properties, options);
    }

    static ServiceProcess startOn(List<String> classPath, String name, Path workDir, Map<String, String> properties,
            List<String> jvmOptions) {
        List<String> launch = new ArrayList<>(jvmOptions);
        launch.add("-cp");
        launch.add(String.join(File.pathSeparator, classPath));
        launch.add("io.seckill.Application");
        return launch(name, workDir, properties, launch);
    }

    /**
     * Starts the packaged jar ({@code target/seckill-camel-*.jar}, built by {@code mvn package} before the
     * integration tests run) as {@code java [jvmOptions] -jar <jar> --key=value …}, the operator's command.
     */
    public static ServiceProcess startJar(String name, Path workDir, Map<String, String> properties,
            List<String> jvmOptions) {
        List<String> launch = new ArrayList<>(jvmOptions);
        launch.add("-jar");
        launch.add(packagedJar().toString());
        return launch(name, workDir, properties, launch);
    }

    private static ServiceProcess launch(String name, Path workDir, Map<String, String> properties,
            List<String> launch) {
        Map<String, String> settings = new LinkedHashMap<>(properties);
        settings.computeIfAbsent("server.port", key -> Integer.toString(freePort()));
        // Everything on server.port unless a test asks for Netty: the child's probes, metrics and console there.
        settings.putIfAbsent("seckill.api.engine", "platform-http");
        // With the netty-http engine the actuator is on Tomcat's port of its own.
        if ("netty-http".equals(settings.get("seckill.api.engine"))) {
            settings.computeIfAbsent("seckill.api.management-port", key -> Integer.toString(freePort()));
        }
        settings.putIfAbsent("seckill.operator.password", OPERATOR_PASSWORD);
        // Ready in seconds: the crash and restart tests measure other things than a warm JIT.
        settings.putIfAbsent("seckill.warm-up.enabled", "false");
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(launch);
        settings.forEach((key, value) -> command.add("--" + key + "=" + value));
        try {
            Files.createDirectories(workDir);
            Files.createDirectories(LOGS);
            Path log = LOGS.resolve(name + ".log");
            Process process = new ProcessBuilder(command).directory(workDir.toFile()).redirectErrorStream(true)
                    .redirectOutput(log.toFile()).start();
            int port = Integer.parseInt(settings.get("server.port"));
            int managementPort = Integer.parseInt(settings.getOrDefault("seckill.api.management-port",
                    Integer.toString(port)));
            return new ServiceProcess(name, process, port, managementPort, log,
                    settings.getOrDefault("seckill.operator.username", "operator"),
                    settings.get("seckill.operator.password"));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start " + name, e);
        }
    }

    public String name() {
        return name;
    }

    public int port() {
        return port;
    }

    public long pid() {
        return process.pid();
    }

    public Path log() {
        return log;
    }

    public ApiClient api() {
        return api;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /**
     * Waits until {@code /actuator/health/readiness} answers UP (the probe anyone may call; it covers Redis, the
     * database, the routes and the writers' backlog); fails at once, with the log's tail, if the JVM exits.
     */
    public ServiceProcess awaitHealthy(Duration timeout) {
        await().atMost(timeout).pollInterval(Duration.ofMillis(250)).until(() -> {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " exited with " + process.exitValue() + ":\n" + logTail(40));
            }
            try {
                return api.get("/actuator/health/readiness").status() == 200;
            } catch (UncheckedIOException notListeningYet) {
                return false;
            }
        });
        return this;
    }

    /**
     * SIGKILLs the instance at a moment when {@code moment} holds (a state read from Redis or the database, such as
     * "it holds unacknowledged entries"). Checking and then killing would let the moment pass in between (the
     * instance acknowledges its batch a millisecond after the check), so once the check passes the JVM is frozen
     * (SIGSTOP) and the check is made again, twice: Redis answers the first only after it has run every command the
     * instance had sent before it froze, so the second sees a state the instance can no longer change. If the moment
     * has passed, the instance is thawed (SIGCONT) and the polling goes on.
     */
    public void killAt(Duration timeout, BooleanSupplier moment) {
        AtomicInteger passed = new AtomicInteger();
        await().atMost(timeout).pollInterval(Duration.ofMillis(5)).until(() -> {
            if (!moment.getAsBoolean()) {
                return false;
            }
            signal("STOP");
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(1)).until(this::isStopped);
            moment.getAsBoolean(); // answered after what the instance sent before it froze
            if (moment.getAsBoolean()) {
                return true;
            }
            signal("CONT");
            passed.incrementAndGet();
            return false;
        });
        kill();
        System.out.printf("%s killed; the moment had passed by the time it froze %d time(s) before%n", name,
                passed.get());
    }

    /** SIGKILL: no shutdown hook, no finally block, nothing flushed. */
    public void kill() {
        process.destroyForcibly();
        waitFor(Duration.ofSeconds(30));
    }

    /** SIGTERM, then waits; true when the JVM exited within the timeout. */
    public boolean stop(Duration timeout) {
        process.destroy();
        return waitFor(timeout);
    }

    public int exitValue() {
        return process.exitValue();
    }

    public String logTail(int lines) {
        try {
            List<String> all = Files.readAllLines(log);
            return String.join("\n", all.subList(Math.max(0, all.size() - lines), all.size()));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    public static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The shell's own kill: no package to install (the JDK sends no signal but SIGTERM and SIGKILL). */
    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("sh", "-c", "kill -" + signal + " " + process.pid()).start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + process.pid() + " exited with "
                        + kill.exitValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The process state in /proc/<pid>/stat (the field after the parenthesised command name) is T once stopped. */
    private boolean isStopped() throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(process.pid()), "stat"));
        return stat.charAt(stat.lastIndexOf(')') + 2) == 'T';
    }

    private boolean waitFor(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private static Path packagedJar() {
        try (var jars = Files.list(Path.of("target"))) {
            return jars.filter(jar -> jar.getFileName().toString().matches("seckill-camel-.*\\.jar"))
                    .map(Path::toAbsolutePath).findFirst()
                    .orElseThrow(() -> new IllegalStateException("No target/seckill-camel-*.jar: run mvn package"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * This JVM's class path without test classes. Maven's test runners often pass it as a single jar whose
     * manifest lists the real entries; those are unfolded.
     */
    static List<String> mainClassPath() {
        List<String> entries = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            entries.addAll(unfold(Path.of(entry)));
        }
        return entries.stream().filter(entry -> !Path.of(entry).endsWith("test-classes")).toList();
    }

    private static List<String> unfold(Path entry) {
        if (!entry.toString().endsWith(".jar") || !Files.isRegularFile(entry)) {
            return List.of(entry.toAbsolutePath().toString());
        }
        try (JarFile jar = new JarFile(entry.toFile())) {
            Manifest manifest = jar.getManifest();
            String classPath = manifest == null ? null : manifest.getMainAttributes().getValue("Class-Path");
            if (classPath == null || classPath.isBlank()) {
                return List.of(entry.toAbsolutePath().toString());
            }
            URI base = entry.toAbsolutePath().getParent().toUri();
            List<String> unfolded = new ArrayList<>();
            for (String item : classPath.trim().split("\\s+")) {
                unfolded.add(Path.of(base.resolve(item)).toString());
            }
            return unfolded;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
