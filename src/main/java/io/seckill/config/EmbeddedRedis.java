package io.seckill.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;

/**
 * A real redis-server from the embedded-redis jar, keeping an append-only file (fsync every second) in its data
 * directory. A JVM killed with SIGKILL leaves its redis-server running; the next start finds it through the
 * pid file and shuts it down (it saves on SIGTERM) before starting a fresh one on the same data.
 *
 * <p>The jar gives the binary and its configuration; the process is run here. The jar's own {@code start()}
 * registers a JVM shutdown hook that stops Redis at the very start of a SIGTERM, while the order writer still
 * drains its batch; here Redis stops when Spring closes this bean, after Camel has stopped.
 */
public final class EmbeddedRedis implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedis.class);
    private static final Duration ORPHAN_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);

    private final Process server;
    private final int port;
    private final Path dataDir;

    private EmbeddedRedis(Process server, int port, Path dataDir) {
        this.server = server;
        this.port = port;
        this.dataDir = dataDir;
    }

    public static EmbeddedRedis start(int requestedPort, Path dataDir) {
        try {
            Path dir = dataDir.toAbsolutePath();
            Files.createDirectories(dir);
            Path pidFile = dir.resolve("redis.pid");
            stopOrphan(pidFile);
            int port = requestedPort == 0 ? freePort() : requestedPort;
            List<String> command = RedisServer.newRedisServer()
                    .port(port)
                    .bind("127.0.0.1")
                    .setting("dir " + dir)
                    .setting("pidfile " + pidFile)
                    .setting("appendonly yes")
                    .setting("appendfsync everysec")
                    .setting("save \"\"")
                    .buildCommandArgs();
            Process server = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile())).start();
            awaitListening(server, port, dir);
            log.info("Embedded Redis listening on 127.0.0.1:{}, data in {}", port, dir);
            return new EmbeddedRedis(server, port, dir);
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

    /** SIGTERM: Redis writes its append-only file and exits. */
    @Override
    public void close() {
        server.destroy();
        try {
            if (!server.waitFor(STOP_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                log.warn("Embedded Redis did not stop within {}; killing it", STOP_TIMEOUT);
                server.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            server.destroyForcibly();
        }
    }

    private static void awaitListening(Process server, int port, Path dir) throws IOException {
        long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            if (!server.isAlive()) {
                throw new IOException("redis-server exited with " + server.exitValue() + "; see " + dir
                        .resolve("redis.log"));
            }
            try (Socket socket = new Socket("127.0.0.1", port)) {
                return;
            } catch (IOException notYet) {
                try {
                    Thread.sleep(50);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("Interrupted while waiting for redis-server", e);
                }
            }
        }
        server.destroyForcibly();
        throw new IOException("redis-server did not listen on " + port + " within " + START_TIMEOUT);
    }

    /** A redis-server left by a killed JVM still holds the data directory: let it save and exit. */
    private static void stopOrphan(Path pidFile) throws IOException {
        if (!Files.exists(pidFile)) {
            return;
        }
        Optional<ProcessHandle> orphan = readPid(pidFile).flatMap(ProcessHandle::of)
                .filter(p -> p.info().command().map(c -> c.contains("redis-server")).orElse(false));
        if (orphan.isPresent()) {
            ProcessHandle process = orphan.get();
            log.warn("Stopping redis-server {} left behind by an earlier run", process.pid());
            process.destroy();
            try {
                process.onExit().get(ORPHAN_SHUTDOWN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (Exception e) {
                process.destroyForcibly();
            }
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
