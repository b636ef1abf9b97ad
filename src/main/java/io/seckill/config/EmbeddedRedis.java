package io.seckill.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.embedded.RedisServer;

/**
 * A real redis-server from the embedded-redis jar, keeping an append-only file (fsync every second) in its data
 * directory. A JVM killed with SIGKILL leaves its redis-server running; the next start finds it through the
 * pid file and shuts it down (it saves on SIGTERM) before starting a fresh one on the same data.
 */
public final class EmbeddedRedis implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedis.class);
    private static final Duration ORPHAN_SHUTDOWN_TIMEOUT = Duration.ofSeconds(30);

    private final RedisServer server;
    private final int port;
    private final Path dataDir;

    private EmbeddedRedis(RedisServer server, int port, Path dataDir) {
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
            RedisServer server = RedisServer.newRedisServer()
                    .port(port)
                    .bind("127.0.0.1")
                    .setting("dir " + dir)
                    .setting("pidfile " + pidFile)
                    .setting("appendonly yes")
                    .setting("appendfsync everysec")
                    .setting("save \"\"")
                    .onShutdownForceStop(true)
                    .build();
            server.start();
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

    @Override
    public void close() {
        try {
            server.stop();
        } catch (IOException e) {
            log.warn("Embedded Redis did not stop cleanly", e);
        }
    }

    /**
     * Starts the server again after {@link #close()}, on the same port and data directory, as a restarted Redis
     * would come back: an outage drill (the health tests use it). Clients reconnect on their own.
     */
    public void restart() {
        try {
            server.start();
            log.info("Embedded Redis listening again on 127.0.0.1:{}, data in {}", port, dataDir);
        } catch (IOException e) {
            throw new UncheckedIOException("Embedded Redis did not restart in " + dataDir, e);
        }
    }

    public boolean isRunning() {
        return server.isActive();
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
