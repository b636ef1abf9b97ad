package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;

import io.lettuce.core.ClientOptions.DisconnectedBehavior;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions.RefreshTrigger;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** The Redis client's options as Boot builds them from the properties, with this service's customisers. */
class RedisClientConfigurationTests {

    private final ApplicationContextRunner contexts = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RedisAutoConfiguration.class))
            .withUserConfiguration(RedisClientConfiguration.class, OutageProperties.class)
            .withPropertyValues("spring.data.redis.cluster.nodes=127.0.0.1:7001",
                    "spring.data.redis.lettuce.cluster.refresh.adaptive=true",
                    "spring.data.redis.lettuce.cluster.refresh.period=30s",
                    "spring.data.redis.lettuce.cluster.refresh.dynamic-refresh-sources=false",
                    "seckill.redis.outage.retry-after=1s", "seckill.redis.outage.max-reconnect-delay=1s",
                    "seckill.redis.outage.cluster-refresh-interval=2s");

    @Test
    void onAClusterAFailingNodeHasTheTopologyReReadEveryRefreshIntervalAndBootsRefreshSettingsStand() {
        contexts.run(context -> {
            ClusterClientOptions options = (ClusterClientOptions) context.getBean(LettuceConnectionFactory.class)
                    .getClientConfiguration().getClientOptions().orElseThrow();
            ClusterTopologyRefreshOptions refresh = options.getTopologyRefreshOptions();
            assertThat(refresh.getAdaptiveRefreshTimeout()).isEqualTo(Duration.ofSeconds(2));
            assertThat(refresh.getAdaptiveRefreshTriggers()).containsExactlyInAnyOrder(RefreshTrigger.values());
            assertThat(refresh.isPeriodicRefreshEnabled()).isTrue();
            assertThat(refresh.getRefreshPeriod()).isEqualTo(Duration.ofSeconds(30));
            assertThat(refresh.useDynamicRefreshSources()).isFalse();
            assertThat(refresh.getRefreshTriggersReconnectAttempts())
                    .isEqualTo(ClusterTopologyRefreshOptions.DEFAULT_REFRESH_TRIGGERS_RECONNECT_ATTEMPTS);
            assertThat(options.getDisconnectedBehavior()).isEqualTo(DisconnectedBehavior.REJECT_COMMANDS);
        });
    }

    @EnableConfigurationProperties(RedisOutageProperties.class)
    static class OutageProperties {}
}
