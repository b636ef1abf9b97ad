package io.seckill.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;
import org.springframework.data.redis.core.RedisCallback;
import redis.embedded.RedisSentinel;

/**
 * A Sentinel-managed Redis as operators run one, as real processes (the embedded-redis jar's redis-server, free
 * ports): a master, one replica, and three Sentinels that promote the replica (quorum 2) once the master has not
 * answered for a second. A test kills the master's process ({@link #killMaster}) as a machine failure would.
 */
public final class SentinelRedis implements AutoCloseable {

    public static final String MASTER_NAME = "seckill";
    private static final long DOWN_AFTER_MILLIS = 1000;
    private static final long FAILOVER_TIMEOUT_MILLIS = 3000;

    private final List<StandaloneRedis> servers;
    private final List<RedisSentinel> sentinels;
    private final List<Integer> sentinelPorts;
    private final int replicas;

    private SentinelRedis(List<StandaloneRedis> servers, List<RedisSentinel> sentinels, List<Integer> sentinelPorts) {
        this.servers = servers;
        this.sentinels = sentinels;
        this.sentinelPorts = sentinelPorts;
        this.replicas = servers.size() - 1;
    }

    /** A master with one replica. */
    public static SentinelRedis start(Path dir) {
        return start(dir, 1);
    }

    public static SentinelRedis start(Path dir, int replicas) {
        List<StandaloneRedis> servers = new ArrayList<>();
        StandaloneRedis master = StandaloneRedis.start(dir.resolve("master"));
        servers.add(master);
        for (int i = 0; i < replicas; i++) {
            servers.add(StandaloneRedis.start(dir.resolve("replica-" + i), "replicaof 127.0.0.1 " + master.port()));
        }
        List<RedisSentinel> sentinels = new ArrayList<>();
        List<Integer> ports = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                int port = ServiceProcess.freePort();
                // The builder writes each its own configuration file, which Sentinel rewrites as it learns the topology.
                RedisSentinel sentinel = RedisSentinel.newRedisSentinel().bind("127.0.0.1").port(port)
                        .masterName(MASTER_NAME).masterPort(master.port())
                        .quorumSize(2).downAfterMilliseconds(DOWN_AFTER_MILLIS)
                        .failOverTimeout(FAILOVER_TIMEOUT_MILLIS).parallelSyncs(1).build();
                sentinel.start();
                sentinels.add(sentinel);
                ports.add(port);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return new SentinelRedis(servers, sentinels, ports);
    }

    /** What the service needs to find the master through the Sentinels (Spring Boot's own properties). */
    public Map<String, String> serviceProperties() {
        return Map.of("seckill.redis.embedded", "false",
                "spring.data.redis.sentinel.master", MASTER_NAME,
                "spring.data.redis.sentinel.nodes", sentinelPorts.stream().map(port -> "127.0.0.1:" + port)
                        .collect(Collectors.joining(",")));
    }

    /** The master's port, as the first Sentinel answers now ({@code SENTINEL get-master-addr-by-name}). */
    public int masterPort() {
        try (RawRedis sentinel = RawRedis.connect(sentinelPorts.get(0))) {
            // *2, $9, 127.0.0.1, $<n>, <port>
            List<String> reply = sentinel.call(5, "SENTINEL", "get-master-addr-by-name", MASTER_NAME);
            return Integer.parseInt(reply.get(4));
        }
    }

    /** Whether the master's replicas are connected and in sync ({@code INFO replication} of the master). */
    public boolean replicaInSync() {
        Properties replication = server(masterPort()).template().execute(
                (RedisCallback<Properties>) connection -> connection.serverCommands().info("replication"));
        if (replication == null || !Integer.toString(replicas).equals(replication.getProperty("connected_slaves"))) {
            return false;
        }
        for (int i = 0; i < replicas; i++) {
            if (!replication.getProperty("slave" + i, "").contains("state=online")) {
                return false;
            }
        }
        return true;
    }

    /** Whether every Sentinel knows the replicas (a failover needs one to promote). */
    public boolean sentinelsSeeTheReplica() {
        for (int port : sentinelPorts) {
            try (RawRedis sentinel = RawRedis.connect(port)) {
                // SENTINEL replicas seckill: *N when N replicas are known
                if (!("*" + replicas).equals(sentinel.call("SENTINEL", "replicas", MASTER_NAME))) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * SIGKILL of the master's redis-server (its pid from {@code INFO server}): no shutdown, no last write to its
     * replica, as when its machine dies.
     *
     * @return the port the master had
     */
    public int killMaster() {
        int port = masterPort();
        ProcessHandle.of(server(port).pid()).orElseThrow().destroyForcibly();
        return port;
    }

    private StandaloneRedis server(int port) {
        return servers.stream().filter(server -> server.port() == port).findFirst()
                .orElseThrow(() -> new IllegalStateException("No server of this test on port " + port));
    }

    @Override
    public void close() throws IOException {
        for (RedisSentinel sentinel : sentinels) {
            sentinel.stop();
        }
        for (StandaloneRedis server : servers) {
            try {
                server.close();
            } catch (IOException | RuntimeException killedAlready) {
                // the master the test killed
            }
        }
    }
}
