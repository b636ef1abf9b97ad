package io.seckill.support;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.stream.Collectors;
import redis.clients.jedis.Jedis;
import redis.embedded.RedisShardedCluster;
import redis.embedded.core.RedisServerBuilder;

/**
 * A real Redis Cluster of three masters (no replicas) from the embedded-redis jar, on free ports: the library
 * starts the servers with {@code cluster-enabled yes}, splits the 16384 slots between them (CLUSTER ADDSLOTS),
 * joins them (CLUSTER MEET) and waits until the cluster answers.
 */
public final class EmbeddedRedisCluster implements AutoCloseable {

    private static final Duration READY_TIMEOUT = Duration.ofSeconds(60);
    private static final int ATTEMPTS = 3;

    private final RedisShardedCluster cluster;

    private EmbeddedRedisCluster(RedisShardedCluster cluster) {
        this.cluster = cluster;
    }

    public static EmbeddedRedisCluster start() {
        IOException failed = null;
        // A node listens on its port and on that port + 10000 (the cluster bus), which the library does not check:
        // an outgoing connection of this machine may hold the second one. New ports are tried then.
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            RedisShardedCluster cluster = null;
            try {
                // Each node keeps its cluster state file (nodes-main-<port>.conf) here, away from other runs'.
                Path dir = Files.createDirectories(Path.of("target", "test-data",
                        "redis-cluster-" + UUID.randomUUID()).toAbsolutePath());
                cluster = RedisShardedCluster.newRedisCluster()
                        .withServerBuilder(new RedisServerBuilder().setting("dir " + dir).setting("save \"\""))
                        .ephemeralServers()
                        .shard("a", 0)
                        .shard("b", 0)
                        .shard("c", 0)
                        .initializationTimeout(READY_TIMEOUT)
                        .build();
                cluster.start();
                awaitClusterStateOk(cluster.serverPorts());
                return new EmbeddedRedisCluster(cluster);
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
        try (Jedis node = new Jedis("127.0.0.1", port)) {
            return node.clusterInfo().contains("cluster_state:ok");
        }
    }

    /** For {@code spring.data.redis.cluster.nodes}. */
    public String nodes() {
        return cluster.serverPorts().stream().map(port -> "127.0.0.1:" + port).collect(Collectors.joining(","));
    }

    @Override
    public void close() throws IOException {
        cluster.stop();
    }
}
