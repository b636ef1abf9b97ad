package io.seckill.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import redis.embedded.RedisServer;
import redis.embedded.core.RedisServerBuilder;

/**
 * A redis-server owned by the test (embedded-redis jar, free port): a fresh one for service processes run with
 * {@code seckill.redis.embedded=false}, which outlives every instance the test kills; or one reopening the data
 * a stopped service's embedded Redis left (its append-only file), to see what it held.
 */
public final class StandaloneRedis implements AutoCloseable {

    private final RedisServer server;
    private final int port;
    private final RedisPort client;

    private StandaloneRedis(RedisServer server, int port) {
        this.server = server;
        this.port = port;
        this.client = RedisPort.connect(port);
    }

    /**
     * A Redis of its own, nothing persisted.
     *
     * @param settings more redis.conf lines ({@code "maxmemory 10mb"})
     */
    public static StandaloneRedis start(Path dir, String... settings) {
        return start(dir, false, settings);
    }

    /** A Redis loading the append-only file in {@code dir}. */
    public static StandaloneRedis reopen(Path dir) {
        return start(dir, true);
    }

    private static StandaloneRedis start(Path dir, boolean appendOnly, String... settings) {
        int port = ServiceProcess.freePort();
        try {
            Files.createDirectories(dir);
            RedisServerBuilder builder = RedisServer.newRedisServer().port(port).bind("127.0.0.1")
                    .setting("dir " + dir.toAbsolutePath())
                    .setting("save \"\"")
                    .setting("appendonly " + (appendOnly ? "yes" : "no"));
            for (String setting : settings) {
                builder.setting(setting);
            }
            RedisServer server = builder.build();
            server.start();
            return new StandaloneRedis(server, port);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** SIGTERM, as an operator's restart or a failover would: the server writes its append-only file and exits. */
    public void stop() throws IOException {
        server.stop();
    }

    /** Starts the stopped server again on the same port and data (its append-only file replayed, if it kept one). */
    public void restart() throws IOException {
        server.start();
    }

    public int port() {
        return port;
    }

    /** The redis-server's process id ({@code INFO server}), for a test that signals it as a failure would. */
    public long pid() {
        return Long.parseLong(info("server").getProperty("process_id"));
    }

    /**
     * Freezes the server (SIGSTOP: the process stays, as a stalled machine's would) until the returned handle is
     * closed (SIGCONT). A frozen server answers nothing, INFO included: its pid is read before.
     */
    public Frozen freeze() {
        long pid = pid();
        signal("STOP", pid);
        return () -> signal("CONT", pid);
    }

    /**
     * SIGKILL, as a crash of the server or its machine: its clients' connections break at once. Returns once the
     * process is gone (the signal is delivered before the process dies, and its sockets close with it).
     */
    public void kill() {
        long pid = pid();
        signal("KILL", pid);
        ProcessHandle.of(pid).ifPresent(process -> process.onExit().orTimeout(30, TimeUnit.SECONDS).join());
    }

    /** A frozen server, thawed by {@link #close}. */
    public interface Frozen extends AutoCloseable {
        @Override
        void close();
    }

    /**
     * Refuses {@code command} to the default user, the service's ({@code ACL SETUSER default -command}), as an ACL
     * tightened under a running service would, until the returned handle is closed.
     */
    public Denied deny(String command) {
        acl("-" + command);
        return () -> acl("+" + command);
    }

    /** A command refused by {@link #deny}, allowed again by {@link #close}. */
    public interface Denied extends AutoCloseable {
        @Override
        void close();
    }

    private void acl(String rule) {
        template().execute((RedisCallback<Object>) connection -> connection.execute("ACL", bytes("SETUSER"),
                bytes("default"), bytes(rule)));
    }

    private static void signal(String signal, long pid) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
            if (kill.waitFor() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + pid + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** Whether a replica is connected and in sync ({@code INFO replication}). */
    public boolean replicaOnline() {
        return info("replication").getProperty("slave0", "").contains("state=online");
    }

    /** How many times the server ran {@code command} ({@code INFO commandstats}). */
    public long calls(String command) {
        String stats = info("commandstats").getProperty("cmdstat_" + command.toLowerCase(Locale.ROOT));
        return stats == null ? 0 : Long.parseLong(stats.replaceFirst("^calls=(\\d+),.*$", "$1"));
    }

    /** The address of the first client whose {@code CLIENT LIST} line contains {@code fragment}, or null. */
    public String clientAddress(String fragment) {
        Object reply = template().execute(
                (RedisCallback<Object>) connection -> connection.execute("CLIENT", bytes("LIST")));
        String clients = reply instanceof byte[] list ? new String(list, StandardCharsets.UTF_8) : (String) reply;
        return clients == null ? null : clients.lines().filter(line -> line.contains(fragment))
                .map(line -> line.replaceFirst("^.* addr=(\\S+) .*$", "$1")).findFirst().orElse(null);
    }

    /** Closes a client's connection from the server's side, as a network failure or a proxy would. */
    public void killClient(String address) {
        template().execute((RedisCallback<Object>) connection -> connection.execute("CLIENT", bytes("KILL"),
                bytes(address)));
    }

    private Properties info(String section) {
        Properties info = template().execute(
                (RedisCallback<Properties>) connection -> connection.serverCommands().info(section));
        return info != null ? info : new Properties();
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    public StringRedisTemplate template() {
        return client.template();
    }

    /** What a {@link ServiceProcess} needs to use this Redis instead of starting its own. */
    public Map<String, String> serviceProperties() {
        return Map.of("seckill.redis.embedded", "false", "spring.data.redis.host", "127.0.0.1",
                "spring.data.redis.port", Integer.toString(port));
    }

    @Override
    public void close() throws IOException {
        client.close();
        server.stop();
    }
}
