package io.seckill.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import redis.clients.jedis.Jedis;
import redis.embedded.RedisShardedCluster;
import redis.embedded.core.RedisServerBuilder;

/**
 * A real Redis Cluster of three masters from the embedded-redis jar, on free ports, each master with as many
 * replicas as asked: the library starts the servers with {@code cluster-enabled yes}, splits the 16384 slots between
 * the masters (CLUSTER ADDSLOTS), joins them (CLUSTER MEET), has each replica follow its master (CLUSTER REPLICATE)
 * and waits until the cluster answers. With replicas, a master that stops answering is replaced by its replica
 * within a few seconds ({@link #FAILOVER_NODE_TIMEOUT}), and a test can kill one ({@link #kill}).
 */
public final class EmbeddedRedisCluster implements AutoCloseable {

    /**
     * {@code cluster-node-timeout} of a cluster with replicas: a master silent this long is failing, and its replica
     * takes over about a second later. Redis's default is 15 s, the library's 5 s.
     */
    public static final Duration FAILOVER_NODE_TIMEOUT = Duration.ofMillis(2000);
    private static final Logger log = LoggerFactory.getLogger(EmbeddedRedisCluster.class);
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final int ATTEMPTS = 3;
    private static final String HOST = "127.0.0.1";

    private final RedisShardedCluster cluster;

    private EmbeddedRedisCluster(RedisShardedCluster cluster) {
        this.cluster = cluster;
    }

    /** Three masters, no replicas. */
    public static EmbeddedRedisCluster start() {
        return start(0);
    }

    /** Three masters with {@code replicasPerMaster} replicas each, returned once every replica is in sync. */
    public static EmbeddedRedisCluster start(int replicasPerMaster) {
        IOException failed = null;
        // A node listens on its port and on that port + 10000 (the cluster bus), which the library does not check:
        // an outgoing connection of this machine may hold the second one. New ports are tried then.
        long startedAt = System.nanoTime();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            RedisShardedCluster cluster = null;
            try {
                // Each node keeps its cluster state file (nodes-main-<port>.conf) here, away from other runs'.
                Path dir = Files.createDirectories(Path.of("target", "test-data",
                        "redis-cluster-" + UUID.randomUUID()).toAbsolutePath());
                // The nodes share that directory: replication streams its snapshot over the socket (diskless) instead
                // of through dump.rdb, which every node would write. A node's log is read as it comes (the library
                // otherwise leaves it in the pipe, where a talkative node would block once the pipe is full).
                RedisServerBuilder servers = new RedisServerBuilder().setting("dir " + dir).setting("save \"\"")
                        .setting("repl-diskless-sync yes").setting("repl-diskless-sync-delay 0")
                        .setting("repl-diskless-load on-empty-db")
                        .soutListener(line -> log.trace("{}", line));
                cluster = RedisShardedCluster.newRedisCluster()
                        .withServerBuilder(servers)
                        .ephemeralServers()
                        .shard("a", replicasPerMaster)
                        .shard("b", replicasPerMaster)
                        .shard("c", replicasPerMaster)
                        .initializationTimeout(READY_TIMEOUT)
                        .build();
                cluster.start();
                List<Integer> ports = cluster.serverPorts();
                if (replicasPerMaster > 0) {
                    // The library writes its own cluster-node-timeout after any setting given to it.
                    ports.forEach(port -> call(port, node -> node.configSet("cluster-node-timeout",
                            Long.toString(FAILOVER_NODE_TIMEOUT.toMillis()))));
                }
                awaitClusterStateOk(ports);
                EmbeddedRedisCluster started = new EmbeddedRedisCluster(cluster);
                started.awaitReplicasInSync(3 * replicasPerMaster);
                log.info("Redis Cluster of 3 masters with {} replica(s) each ready in {} ms", replicasPerMaster,
                        (System.nanoTime() - startedAt) / 1_000_000);
                return started;
            } catch (IOException e) {
                failed = e;
                stopQuietly(cluster);
            }
        }
        throw new UncheckedIOException("Embedded Redis Cluster did not start in " + ATTEMPTS + " attempts", failed);
    }

    private static void stopQuietly(RedisShardedCluster cluster) {
        if (cluster == null) {
            return;
        }
        try {
            cluster.stop();
        } catch (IOException | RuntimeException notStarted) {
            // the nodes that did not start have nothing to stop
        }
    }

    /**
     * The library returns once the nodes answer; each node says CLUSTERDOWN until it has learnt, by gossip, that
     * every slot is served. Wait until every node reports {@code cluster_state:ok} (CLUSTER INFO).
     */
    private static void awaitClusterStateOk(List<Integer> ports) {
        await().atMost(READY_TIMEOUT).pollInterval(Duration.ofMillis(100))
                .until(() -> ports.stream().allMatch(EmbeddedRedisCluster::stateOk));
    }

    private static boolean stateOk(int port) {
        return call(port, node -> node.clusterInfo().contains("cluster_state:ok"));
    }

    /** Every replica's link to its master up (INFO replication), and every node knowing every other (CLUSTER NODES). */
    private void awaitReplicasInSync(int replicas) {
        List<Integer> ports = cluster.serverPorts();
        await().atMost(READY_TIMEOUT).pollInterval(Duration.ofMillis(100)).until(() -> ports.stream()
                .allMatch(port -> call(port, node -> {
                    List<Node> known = Node.parse(node.clusterNodes());
                    String replication = node.info("replication");
                    return known.size() == ports.size() && known.stream().noneMatch(Node::failing)
                            && (replication.contains("role:master") || replication.contains("master_link_status:up"));
                })));
        long inSync = ports.stream().filter(port -> !isMaster(port)).count();
        if (inSync != replicas) {
            throw new IllegalStateException(inSync + " replicas, " + replicas + " expected");
        }
    }

    /** For {@code spring.data.redis.cluster.nodes}: every node, masters and replicas. */
    public String nodes() {
        return cluster.serverPorts().stream().map(port -> HOST + ":" + port).collect(Collectors.joining(","));
    }

    /** The port of the master serving {@code key}'s slot now (CLUSTER KEYSLOT, CLUSTER NODES of a live node). */
    public int masterOf(String key) {
        int live = liveNode();
        return call(live, node -> {
            int slot = (int) node.clusterKeySlot(key);
            return Node.parse(node.clusterNodes()).stream().filter(n -> n.master() && !n.failing() && n.serves(slot))
                    .findFirst().orElseThrow(() -> new IllegalStateException("No master serves slot " + slot))
                    .port();
        });
    }

    /** The port of the (first) replica of the master on {@code masterPort}, as the cluster knows it now. */
    public int replicaOf(int masterPort) {
        return call(liveNode(), node -> {
            List<Node> known = Node.parse(node.clusterNodes());
            String masterId = known.stream().filter(n -> n.port() == masterPort).findFirst().orElseThrow().id();
            return known.stream().filter(n -> masterId.equals(n.masterId())).findFirst()
                    .orElseThrow(() -> new IllegalStateException("No replica of " + masterPort)).port();
        });
    }

    /** Whether the node on {@code port} says it is a master (INFO replication {@code role}, as ROLE). */
    public boolean isMaster(int port) {
        return call(port, node -> node.info("replication").contains("role:master"));
    }

    /** Whether every live node reports {@code cluster_state:ok} (CLUSTER INFO). */
    public boolean stateOk() {
        return livePorts().stream().allMatch(EmbeddedRedisCluster::stateOk);
    }

    /**
     * SIGKILL of the node's redis-server (its pid from {@code INFO server}): no shutdown, nothing more sent to its
     * replicas or to the cluster bus, as when its machine dies. Returns once the process is gone.
     */
    public void kill(int port) {
        long pid = call(port, node -> Arrays.stream(node.info("server").split("\r\n"))
                .filter(line -> line.startsWith("process_id:")).mapToLong(line -> Long.parseLong(line.substring(11)))
                .findFirst().orElseThrow());
        ProcessHandle process = ProcessHandle.of(pid).orElseThrow();
        process.destroyForcibly();
        try {
            process.onExit().get(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("redis-server " + pid + " (port " + port + ") did not die", e);
        }
    }

    private List<Integer> livePorts() {
        return cluster.serverPorts().stream().filter(EmbeddedRedisCluster::answers).toList();
    }

    private int liveNode() {
        return livePorts().stream().findFirst().orElseThrow(() -> new IllegalStateException("No node answers"));
    }

    private static boolean answers(int port) {
        try (Jedis node = new Jedis(HOST, port)) {
            return "PONG".equals(node.ping());
        } catch (RuntimeException down) {
            return false;
        }
    }

    private static <T> T call(int port, java.util.function.Function<Jedis, T> command) {
        try (Jedis node = new Jedis(HOST, port)) {
            return command.apply(node);
        }
    }

    @Override
    public void close() throws IOException {
        // A killed node's stop finds its process gone.
        cluster.stop();
    }

    /** One line of CLUSTER NODES: {@code <id> <ip:port@bus> <flags> <master id or -> … <link> <slot ranges…>}. */
    private record Node(String id, int port, List<String> flags, String masterId, List<int[]> slots) {

        static List<Node> parse(String clusterNodes) {
            return clusterNodes.lines().filter(line -> !line.isBlank()).map(Node::of).toList();
        }

        static Node of(String line) {
            String[] fields = line.split(" ");
            String address = fields[1].substring(0, fields[1].indexOf('@'));
            int port = Integer.parseInt(address.substring(address.lastIndexOf(':') + 1));
            List<int[]> slots = Arrays.stream(fields).skip(8).filter(range -> !range.startsWith("["))
                    .map(range -> range.split("-"))
                    .map(ends -> new int[] {Integer.parseInt(ends[0]), Integer.parseInt(ends[ends.length - 1])})
                    .toList();
            return new Node(fields[0], port, List.of(fields[2].split(",")), fields[3], slots);
        }

        boolean master() {
            return flags.contains("master");
        }

        boolean failing() {
            return flags.contains("fail") || flags.contains("fail?") || flags.contains("handshake")
                    || flags.contains("noaddr");
        }

        boolean serves(int slot) {
            return slots.stream().anyMatch(range -> range[0] <= slot && slot <= range[1]);
        }
    }
}
