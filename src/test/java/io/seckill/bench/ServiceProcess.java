package io.seckill.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Pattern;

/**
 * The packaged service started as an operator starts it ({@code java OPTIONS -jar JAR ARGUMENTS} from a folder of its
 * own, so its {@code ./data} lands there), on free ports, and returned once its readiness probe says UP: the API
 * answers 503 until the service's own start-up warm-up is done.
 */
final class ServiceProcess {

    static final Pattern STARTED = Pattern.compile("Started [A-Za-z]+ in [0-9.]+ seconds");
    static final Pattern TOMCAT_PORT = Pattern.compile("Tomcat started on port (\\d+)");
    private static final Pattern API_PORT = Pattern.compile("API listening on port (\\d+)");
    private static final Pattern REDIS_PORT = Pattern.compile("Embedded Redis listening on 127\\.0\\.0\\.1:(\\d+)");
    private static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    private final ChildProcesses.Child process;
    private final Path directory;
    private final String base;
    private final int redisPort;
    private final String redisPassword;

    private ServiceProcess(ChildProcesses.Child process, Path directory, String base, int redisPort,
            String redisPassword) {
        this.process = process;
        this.directory = directory;
        this.base = base;
        this.redisPort = redisPort;
        this.redisPassword = redisPassword;
    }

    /** Starts the jar; stopGrace is how long stop() waits after SIGTERM before it kills the JVM. */
    static ServiceProcess start(ChildProcesses processes, Path jar, List<String> javaOptions, Path directory, Path log,
            List<String> arguments, Duration stopGrace) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("java"));
        command.addAll(javaOptions);
        command.addAll(List.of("-jar", jar.toAbsolutePath().toString(), "--server.port=0",
                "--seckill.api.management-port=0"));
        command.addAll(arguments);
        ChildProcesses.Child process = processes.start(directory, log, stopGrace, new ProcessBuilder(command));
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        process.awaitLine(STARTED, deadline, "the service");
        // Tomcat's port carries the probes; Netty's (seckill.api.engine=netty-http), when there is one, the API.
        int management = Integer.parseInt(process.awaitLine(TOMCAT_PORT, deadline, "the service").group(1));
        int api = process.firstMatch(API_PORT).map(m -> Integer.parseInt(m.group(1))).orElse(management);
        int redisPort = Integer.parseInt(process.awaitLine(REDIS_PORT, deadline, "the service").group(1));
        awaitReady(process, URI.create("http://127.0.0.1:" + management + "/actuator/health/readiness"), deadline);
        // An older build (first-seconds.sh --jar) may keep no password: then none.
        Path passwordFile = directory.resolve("data/redis/password");
        String password = Files.exists(passwordFile) ? Files.readString(passwordFile).strip() : null;
        ServiceProcess service = new ServiceProcess(process, directory, "http://127.0.0.1:" + api, redisPort, password);
        ChildProcesses.say("service pid " + process.pid() + " ready on " + service.base + " (Redis " + redisPort + ")");
        return service;
    }

    private static void awaitReady(ChildProcesses.Child process, URI readiness, long deadline)
            throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        HttpRequest request = HttpRequest.newBuilder(readiness).timeout(Duration.ofSeconds(5)).GET().build();
        while (true) {
            try {
                if (client.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException notYet) {
                // the port is open before the probe answers
            }
            if (!process.isAlive()) {
                throw new IOException("the service exited during start-up: " + process.log());
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the service was not ready in " + START_TIMEOUT.toSeconds() + " s: "
                        + process.log());
            }
            Thread.sleep(50);
        }
    }

    /** The API's base address, {@code http://127.0.0.1:PORT}. */
    String base() {
        return base;
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return process.log();
    }

    /** When its JVM started, epoch ms: the safepoint log is stamped with the JVM's uptime. */
    long startedMillis() {
        return ProcessHandle.of(process.pid()).flatMap(p -> p.info().startInstant())
                .orElseThrow(() -> new IllegalStateException("the service is not running")).toEpochMilli();
    }

    /** The embedded redis-server's pid, from the pid file in the service's data folder. */
    long redisPid() throws IOException {
        return Long.parseLong(Files.readString(directory.resolve("data/redis/redis.pid")).strip());
    }

    /** Fails when the service has exited: a figure measured against a dead service would be wrong, not low. */
    void checkAlive() throws IOException {
        if (!process.isAlive()) {
            throw new IOException("the service is no longer running: " + process.log());
        }
    }

    int redisPort() {
        return redisPort;
    }

    /** The embedded Redis's password, from the service's data folder; null when it keeps none. */
    String redisPassword() {
        return redisPassword;
    }

    RespConnection redis() throws IOException {
        return new RespConnection(redisPort, redisPassword);
    }

    /**
     * SIGTERM (SIGKILL after the grace period), then the embedded redis-server through the pid file in its data
     * folder if the JVM did not take it down (a killed JVM does not).
     */
    void stop() throws IOException {
        process.stop();
        Path pidFile = directory.resolve("data/redis/redis.pid");
        if (Files.exists(pidFile)) {
            // the pid may have been reused since: only a redis-server is stopped
            ProcessHandle.of(Long.parseLong(Files.readString(pidFile).strip()))
                    .filter(p -> p.info().command().orElse("").contains("redis-server"))
                    .ifPresent(ServiceProcess::stopRedis);
        }
    }

    private static void stopRedis(ProcessHandle redis) {
        redis.destroy();
        try {
            redis.onExit().get(30, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            redis.destroyForcibly();
        } catch (ExecutionException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            redis.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
