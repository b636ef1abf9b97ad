package io.seckill.order;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.seckill.redis.RedisKeys;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * The sale view ({@link SaleView}), the copy of a sold-out voucher's buyers it asks for (SCARD, then SMEMBERS on
 * the order requests' own connection), and its subscription to the announcements of returned units
 * ({@link SaleViewMessages}; Spring's listener container subscribes again after Redis comes back).
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SaleViewProperties.class)
class SaleViewConfiguration {

    @Bean
    SaleView saleView(SaleViewProperties properties, RedisKeys keys,
            RedisClusterAsyncCommands<String, String> asyncScriptCommands) {
        return new SaleView(properties, voucherId -> buyers(asyncScriptCommands, keys.buyers(voucherId),
                properties.maxBuyers()), System::nanoTime);
    }

    @Bean
    RedisMessageListenerContainer saleViewSubscription(RedisConnectionFactory redis, SaleView view,
            SaleViewProperties properties) {
        RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        container.setConnectionFactory(redis);
        container.addMessageListener(new SaleViewMessages(view), new ChannelTopic(properties.channel()));
        return container;
    }

    /** The set's members as numbers, or null when it holds more than {@code max}. */
    private static CompletionStage<long[]> buyers(RedisClusterAsyncCommands<String, String> redis, String key,
            int max) {
        return redis.scard(key).thenCompose(size -> size > max ? CompletableFuture.<long[]>completedFuture(null)
                : redis.smembers(key).thenApply(members -> members.stream().mapToLong(Long::parseLong).toArray()));
    }
}
