package io.seckill.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.RedisClient;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The connection behind {@link AsyncScripts}: Lettuce's asynchronous API on a connection of its own, opened from
 * the client Spring Data Redis built (standalone or cluster alike, with its options) with the {@link ExactUtf8Codec},
 * and the coalesced WAITs on it.
 */
@Configuration(proxyBeanMethods = false)
class AsyncScriptConnection {

    /** Not closed here: Spring stops the connection factory first, and its client's shutdown closes this too. */
    @Bean(destroyMethod = "")
    StatefulConnection<String, String> asyncScriptsConnection(LettuceConnectionFactory connectionFactory,
            ReplicaAckProperties replicas) {
        AbstractRedisClient client = connectionFactory.getRequiredNativeClient();
        if (client instanceof RedisClusterClient cluster) {
            if (replicas.enabled()) {
                // The cluster connection sends a keyless WAIT to a node of its choosing, not the order's master.
                throw new IllegalStateException("seckill.redis.replica-acks needs a standalone or Sentinel-managed "
                        + "Redis; on a Redis Cluster use each master's min-replicas-to-write instead");
            }
            return cluster.connect(ExactUtf8Codec.INSTANCE);
        }
        if (client instanceof RedisClient standalone) {
            return standalone.connect(ExactUtf8Codec.INSTANCE);
        }
        throw new IllegalStateException("Unknown Lettuce client " + client.getClass().getName());
    }

    @Bean
    RedisClusterAsyncCommands<String, String> asyncScriptCommands(
            StatefulConnection<String, String> asyncScriptsConnection) {
        return asyncScriptsConnection instanceof StatefulRedisClusterConnection<String, String> cluster
                ? cluster.async() : ((StatefulRedisConnection<String, String>) asyncScriptsConnection).async();
    }

    @Bean
    ReplicationWaits replicationWaits(StatefulConnection<String, String> asyncScriptsConnection,
            RedisClusterAsyncCommands<String, String> asyncScriptCommands, ReplicaAckProperties replicas) {
        ReplicationWaits waits = new ReplicationWaits(asyncScriptsConnection, asyncScriptCommands, replicas);
        try {
            waits.requireWait();
        } catch (RuntimeException refused) {
            waits.close();
            throw refused;
        }
        return waits;
    }
}
