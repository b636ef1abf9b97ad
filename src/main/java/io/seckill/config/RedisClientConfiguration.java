package io.seckill.config;

import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions.RefreshTrigger;
import io.lettuce.core.resource.Delay;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.autoconfigure.data.redis.ClientResourcesBuilderCustomizer;
import org.springframework.boot.autoconfigure.data.redis.LettuceClientOptionsBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The Redis client (Lettuce, as Spring Boot builds it from {@code spring.data.redis.*}) during an outage.
 *
 * <ul>
 *   <li>While its connection is down, a command fails at once instead of waiting in a queue for the reconnection
 *       until the command timeout ({@code spring.data.redis.timeout}, 5 s): a buyer is answered 503 at once, and
 *       a command that fails this way never reached Redis. Auto-reconnect stays on, and with it a command already
 *       sent when the connection broke and not answered is kept and sent again after the reconnection (to the node
 *       that took over, on a Redis Cluster), or fails with the broken socket, or times out: it may have run, and may
 *       run again ({@link RedisOutage}; the admission script answers its second run ALREADY_ORDERED).</li>
 *   <li>The pause between reconnection attempts is capped at {@code seckill.redis.outage.max-reconnect-delay}
 *       (Lettuce's own cap is 30 s), so the service uses a Redis that is back within about that.</li>
 *   <li>On a Redis Cluster, a failing node's reconnection attempts have the client re-read the topology (Boot's
 *       {@code spring.data.redis.lettuce.cluster.refresh.adaptive}) at most every
 *       {@code seckill.redis.outage.cluster-refresh-interval} instead of Lettuce's 30 s. The first re-read comes
 *       within a few attempts of the master's death, seconds before the cluster promotes its replica; with Lettuce's
 *       30 s the service went on refusing that master's slots for up to 30 s after the promotion
 *       (RedisClusterFailoverIntegrationTests).</li>
 * </ul>
 *
 * <p>Each customises what Boot builds, rather than replacing it: on a Redis Cluster the options builder is Boot's
 * ClusterClientOptions builder with the topology refresh of {@code spring.data.redis.lettuce.cluster.refresh.*},
 * which a whole new ClientOptions would throw away. Every connection opened from the client (the order requests' own
 * one included) gets them.
 */
@Configuration(proxyBeanMethods = false)
class RedisClientConfiguration {

    @Bean
    LettuceClientOptionsBuilderCustomizer rejectCommandsWhileDisconnected() {
        return options -> options.autoReconnect(true).disconnectedBehavior(DisconnectedBehavior.REJECT_COMMANDS);
    }

    @Bean
    LettuceClientOptionsBuilderCustomizer followClusterFailoverQuickly(RedisOutageProperties outage) {
        return options -> {
            if (options instanceof ClusterClientOptions.Builder cluster) {
                cluster.topologyRefreshOptions(withAdaptiveRefreshEvery(
                        cluster.build().getTopologyRefreshOptions(), outage.clusterRefreshInterval()));
            }
        };
    }

    /** Boot's refresh options (Lettuce has no copy as a builder), with another least time between adaptive ones. */
    private static ClusterTopologyRefreshOptions withAdaptiveRefreshEvery(ClusterTopologyRefreshOptions boot,
            Duration interval) {
        ClusterTopologyRefreshOptions.Builder refresh = ClusterTopologyRefreshOptions.builder()
                .adaptiveRefreshTriggersTimeout(interval)
                .refreshTriggersReconnectAttempts(boot.getRefreshTriggersReconnectAttempts())
                .closeStaleConnections(boot.isCloseStaleConnections())
                .dynamicRefreshSources(boot.useDynamicRefreshSources())
                .enablePeriodicRefresh(boot.isPeriodicRefreshEnabled())
                .refreshPeriod(boot.getRefreshPeriod());
        if (!boot.getAdaptiveRefreshTriggers().isEmpty()) {
            refresh.enableAdaptiveRefreshTrigger(boot.getAdaptiveRefreshTriggers().toArray(RefreshTrigger[]::new));
        }
        return refresh.build();
    }

    @Bean
    ClientResourcesBuilderCustomizer cappedReconnectDelay(RedisOutageProperties outage) {
        return resources -> resources.reconnectDelay(
                Delay.exponential(Duration.ZERO, outage.maxReconnectDelay(), 2, TimeUnit.MILLISECONDS));
    }
}
