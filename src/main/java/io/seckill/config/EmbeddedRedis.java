package io.seckill.config;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.core.ExecutableProvider;

/**
 * A real redis-server, the binary the embedded-redis jar ships, keeping an append-only file in its data directory,
 * forced to disk as {@code seckill.redis.appendfsync} says.
 *
 * <p>The process is started and stopped here rather than by the library's RedisServer, whose JVM shutdown hook
 * kills redis-server while Spring is still shutting down gracefully (Camel acknowledging its last batch). Here it
 * stops when its bean is destroyed, after everything that uses Redis, with SIGTERM: it finishes its
 * append-only file and exits. A JVM killed with SIGKILL leaves it running; the next start finds it through the
 * pid file and stops it the same way before starting a fresh one on the same data.
 */
public final class EmbeddedRedis implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedis.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final String READY = "eady to accept connections";

    private final int port;
    private final Path dataDir;
    private final Path pidFile;
    private final String appendfsync;
    private Process process;

    private EmbeddedRedis(int port, Path dataDir, String appendfsync) {
        this.port = port;
        this.dataDir = dataDir;
        this.pidFile = dataDir.resolve("redis.pid");
        this.appendfsync = appendfsync;
    }

    /** With {@code appendfsync everysec}. */
    public static EmbeddedRedis start(int requestedPort, Path dataDir) {
        return start(requestedPort, dataDir, "everysec");
    }

    /** @param appendfsync {@code always}, {@code everysec} or {@code no} */
    public static EmbeddedRedis start(int requestedPort, Path dataDir, String appendfsync) {
        try {
            Path dir = dataDir.toAbsolutePath().normalize();
            Files.createDirectories(dir);
            EmbeddedRedis redis = new EmbeddedRedis(requestedPort == 0 ? freePort() : requestedPort, dir,
                    appendfsync);
            stopOrphan(redis.pidFile);
            redis.launch();
            log.info("Embedded Redis listening on 127.0.0.1:{}, data in {}", redis.port, dir);
            return redis;
        } catch (IOException e) {
            throw new UncheckedIOException("Embedded Redis did not start in " + dataDir, e);
        }
    }

    public int port() {
        return port;
    }

    public Path dataDir() {
        return dataDir;
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    @Override
    public synchronized void close() {
        if (process == null) {
            return;
        }
        stop(process.toHandle());
        process = null;
    }

    /**
     * Starts the server again after {@link #close()}, on the same port and data directory, as a restarted Redis
     * would come back: an outage drill (the health tests use it). Clients reconnect on their own.
     */
    public synchronized void restart() {
        try {
            launch();
            log.info("Embedded Redis listening again on 127.0.0.1:{}, data in {}", port, dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("Embedded Redis did not restart in " + dataDir, e);
        }
    }

    private synchronized void launch() throws IOException {
        File binary = ExecutableProvider.newJarResourceProvider().get();
        List<String> command = List.of(binary.getAbsolutePath(),
                "--port", Integer.toString(port),
                "--bind", "127.0.0.1",
                "--dir", dataDir.toString(),
                "--pidfile", pidFile.toString(),
                "--appendonly", "yes",
                "--appendfsync", appendfsync,
                "--save", "");
        Process started = new ProcessBuilder(command).redirectErrorStream(true).start();
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        Thread output = new Thread(() -> follow(started, ready), "embedded-redis-" + port);
        output.setDaemon(true);
        output.start();
        try {
            if (!ready.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IOException("redis-server exited before it was ready (exit " + started.waitFor() + ")");
            }
        } catch (IOException e) {
            started.destroyForcibly();
            throw e;
        } catch (Exception e) {
            started.destroyForcibly();
            throw new IOException("redis-server was not ready within " + START_TIMEOUT, e);
        }
        process = started;
    }

    /** Reads the server's output to the end (so it never blocks on a full pipe), noting when it is ready. */
    private static void follow(Process process, CompletableFuture<Boolean> ready) {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                log.debug("redis-server: {}", line);
                if (line.contains(READY)) {
                    ready.complete(true);
                }
            }
        } catch (IOException e) {
            log.debug("redis-server output closed", e);
        }
        ready.complete(false);
    }

    /** SIGTERM: Redis flushes its append-only file and exits; SIGKILL only if it does not within the timeout. */
    private static void stop(ProcessHandle process) {
        process.destroy();
        try {
            process.onExit().get(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (Exception e) {
            log.warn("redis-server {} did not stop within {}; killing it", process.pid(), STOP_TIMEOUT);
            process.destroyForcibly();
        }
    }

    /** A redis-server left by a killed JVM still holds the data directory: let it save and exit. */
    private static void stopOrphan(Path pidFile) throws IOException {
        if (!Files.exists(pidFile)) {
            return;
        }
        Optional<ProcessHandle> orphan = readPid(pidFile).flatMap(ProcessHandle::of)
                .filter(p -> p.info().command().map(c -> c.contains("redis-server")).orElse(false));
        if (orphan.isPresent()) {
            log.warn("Stopping redis-server {} left behind by an earlier run", orphan.get().pid());
            stop(orphan.get());
        }
        Files.deleteIfExists(pidFile);
    }

    private static Optional<Long> readPid(Path pidFile) throws IOException {
        try {
            return Optional.of(Long.parseLong(Files.readString(pidFile).trim()));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }
}
