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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.util.unit.DataSize;
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
 *
 * <p>Supervised: when the server dies without being asked to (the OOM killer, a crash, {@code kill -9}), it is
 * started again on the same port and data directory, replaying its append-only file; clients reconnect on their
 * own. A start that fails is tried again with a doubling pause; when every attempt failed (the data directory is
 * gone, the append-only file is corrupt) {@link #failure()} says why and liveness goes DOWN, so an orchestrator
 * restarts the service and an operator reads the reason.
 *
 * <p>Locked down: it listens on 127.0.0.1 only, and its {@code default} user needs the password kept in the data
 * directory ({@link EmbeddedRedisPassword}); the service's clients authenticate with it, other local processes get
 * {@code NOAUTH}. Even with the password, the refused commands ({@code CONFIG}, {@code MODULE}, {@code DEBUG},
 * {@code ACL}, {@code SHUTDOWN} by default) are answered {@code NOPERM}: they would let a client write files where
 * it likes, load code into the server or grant itself back what was refused. The service needs none of them (it
 * stops the server with a signal).
 */
public final class EmbeddedRedis implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedis.class);
    private static final Duration START_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration STOP_TIMEOUT = Duration.ofSeconds(30);
    private static final String READY = "eady to accept connections";
    private static final int DEFAULT_RESTART_ATTEMPTS = 5;
    private static final Duration FIRST_RESTART_PAUSE = Duration.ofMillis(500);
    /** What {@link #start(int, Path)} refuses; the service's own list is {@code seckill.redis.refused-commands}. */
    static final List<String> REFUSED_COMMANDS = List.of("config", "module", "debug", "acl", "shutdown");
    /** Redis's own default for the size its automatic rewrite of the append-only file waits for. */
    private static final DataSize REDIS_AOF_REWRITE_MIN_SIZE = DataSize.ofMegabytes(64);

    private final int port;
    private final Path dataDir;
    private final Path pidFile;
    private final String appendfsync;
    private final int restartAttempts;
    private final String password;
    private final List<String> refusedCommands;
    private final DataSize aofRewriteMaxSize;
    /** Restarts the server after it died; one thread, so restarts never overlap. */
    private final ScheduledExecutorService supervisor;
    private Process process;
    /** Set by {@link #close()}: an exit after it was asked for is not restarted. */
    private boolean stopped;
    private volatile int restarts;
    private volatile String failure;

    private EmbeddedRedis(int port, Path dataDir, String appendfsync, int restartAttempts, String password,
            List<String> refusedCommands, DataSize aofRewriteMaxSize) {
        this.port = port;
        this.dataDir = dataDir;
        this.pidFile = dataDir.resolve("redis.pid");
        this.appendfsync = appendfsync;
        this.restartAttempts = restartAttempts;
        this.password = password;
        this.refusedCommands = List.copyOf(refusedCommands);
        this.aofRewriteMaxSize = aofRewriteMaxSize;
        this.supervisor = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "embedded-redis-supervisor-" + port);
            thread.setDaemon(true);
            return thread;
        });
    }

    /** With {@code appendfsync everysec}, the default refused commands and Redis's own rewrite size. */
    public static EmbeddedRedis start(int requestedPort, Path dataDir) {
        return start(requestedPort, dataDir, "everysec", DEFAULT_RESTART_ATTEMPTS, REFUSED_COMMANDS,
                REDIS_AOF_REWRITE_MIN_SIZE);
    }

    /**
     * @param appendfsync {@code always}, {@code everysec} or {@code no}
     * @param restartAttempts starts tried, each after a pause twice as long, once the server died unasked
     * @param refusedCommands commands answered {@code NOPERM} even with the password
     * @param aofRewriteMaxSize the size (and doubled since the last rewrite) at which Redis rewrites its append-only
     *     file by itself ({@code auto-aof-rewrite-min-size}); the service asks for it earlier when it can
     *     ({@link QuietAofRewrites})
     */
    public static EmbeddedRedis start(int requestedPort, Path dataDir, String appendfsync, int restartAttempts,
            List<String> refusedCommands, DataSize aofRewriteMaxSize) {
        try {
            Path dir = dataDir.toAbsolutePath().normalize();
            Files.createDirectories(dir);
            EmbeddedRedis redis = new EmbeddedRedis(requestedPort == 0 ? freePort() : requestedPort, dir,
                    appendfsync, restartAttempts, EmbeddedRedisPassword.readOrCreate(dir), refusedCommands,
                    aofRewriteMaxSize);
            stopOrphan(redis.pidFile);
            redis.launch();
            log.info("Embedded Redis listening on 127.0.0.1:{}, data in {}, password in {}", redis.port, dir,
                    redis.passwordFile());
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

    /** What a client authenticates with ({@code AUTH <password>}, as the {@code default} user). */
    public String password() {
        return password;
    }

    public Path passwordFile() {
        return dataDir.resolve(EmbeddedRedisPassword.FILE_NAME);
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** How often the server was started again after it died. */
    public int restarts() {
        return restarts;
    }

    /** Why the server is down for good: every restart attempt failed. */
    public Optional<String> failure() {
        return Optional.ofNullable(failure);
    }

    @Override
    public void close() {
        synchronized (this) {
            stopped = true;
            if (process != null) {
                stop(process.toHandle());
                process = null;
            }
        }
        supervisor.shutdownNow();
    }

    /**
     * Starts the server again after {@link #close()}, on the same port and data directory, as a restarted Redis
     * would come back: an outage drill (the health tests use it). Clients reconnect on their own. Supervision
     * stays off: {@link #close()} ended it.
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
        List<String> command = new ArrayList<>(List.of(binary.getAbsolutePath(),
                "--port", Integer.toString(port),
                "--bind", "127.0.0.1",
                "--dir", dataDir.toString(),
                "--pidfile", pidFile.toString(),
                "--appendonly", "yes",
                "--appendfsync", appendfsync,
                "--auto-aof-rewrite-min-size", Long.toString(aofRewriteMaxSize.toBytes()),
                "--save", ""));
        command.addAll(defaultUser());
        Process started = new ProcessBuilder(command).redirectErrorStream(true).start();
        CompletableFuture<Boolean> ready = new CompletableFuture<>();
        AtomicReference<String> lastLine = new AtomicReference<>("");
        Thread output = new Thread(() -> follow(started, ready, lastLine), "embedded-redis-" + port);
        output.setDaemon(true);
        output.start();
        try {
            if (!ready.get(START_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new IOException("redis-server exited before it was ready (exit " + started.waitFor() + "): "
                        + lastLine.get());
            }
        } catch (IOException e) {
            started.destroyForcibly();
            throw e;
        } catch (Exception e) {
            started.destroyForcibly();
            throw new IOException("redis-server was not ready within " + START_TIMEOUT, e);
        }
        process = started;
        // On the supervisor's thread: the lock taken there must not hold up a shared pool.
        started.onExit().thenAcceptAsync(this::exited, supervisor);
    }

    /**
     * The {@code default} user's ACL rule: on, with the password (as its SHA-256, so the command line, which every
     * local user can read, does not carry it), every key and channel, every command but the refused ones.
     */
    private List<String> defaultUser() {
        List<String> user = new ArrayList<>(List.of("--user", "default", "on",
                EmbeddedRedisPassword.aclHash(password), "~*", "&*", "+@all"));
        refusedCommands.forEach(refused -> user.add("-" + refused));
        return user;
    }

    /** A server that exits unasked is started again (after a pause when the previous start failed too). */
    private synchronized void exited(Process exited) {
        if (stopped || exited != process) {
            return;
        }
        log.error("Embedded Redis (pid {}, 127.0.0.1:{}) exited unexpectedly with {}; starting it again on the same "
                + "port and data in {}", exited.pid(), port, exited.exitValue(), dataDir);
        process = null;
        scheduleRestart(1, Duration.ZERO);
    }

    private void scheduleRestart(int attempt, Duration pause) {
        supervisor.schedule(() -> restartAfterExit(attempt), pause.toMillis(), TimeUnit.MILLISECONDS);
    }

    private synchronized void restartAfterExit(int attempt) {
        if (stopped) {
            return;
        }
        try {
            launch();
            restarts++;
            failure = null;
            log.warn("Embedded Redis started again (pid {}) on 127.0.0.1:{} after attempt {}, its append-only file "
                    + "replayed; clients reconnect on their own", process.pid(), port, attempt);
        } catch (IOException e) {
            if (attempt < restartAttempts) {
                Duration pause = FIRST_RESTART_PAUSE.multipliedBy(1L << (attempt - 1));
                log.error("Embedded Redis did not start again (attempt {} of {}): {}; next attempt in {} ms",
                        attempt, restartAttempts, e.getMessage(), pause.toMillis());
                scheduleRestart(attempt + 1, pause);
            } else {
                failure = "redis-server on port " + port + " with data in " + dataDir + " could not be started "
                        + "again (" + restartAttempts + " attempts): " + e.getMessage();
                log.error("Embedded Redis is down for good: {}. Liveness is DOWN: restart the service once the "
                        + "cause is mended", failure);
            }
        }
    }

    /** Reads the server's output to the end (so it never blocks on a full pipe), noting when it is ready. */
    private static void follow(Process process, CompletableFuture<Boolean> ready, AtomicReference<String> lastLine) {
        try (BufferedReader lines = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                log.debug("redis-server: {}", line);
                lastLine.set(line.strip());
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
