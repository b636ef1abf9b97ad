package io.seckill.order;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.seckill.redis.BucketCounts;
import io.seckill.redis.RedisKeys;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.stream.IntStream;
import java.util.stream.LongStream;
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
    SaleView saleView(SaleViewProperties properties, RedisKeys keys, BucketCounts bucketCounts,
            RedisClusterAsyncCommands<String, String> asyncScriptCommands) {
        return new SaleView(properties, voucherId -> buyers(asyncScriptCommands,
                IntStream.range(0, bucketCounts.of(voucherId))
                        .mapToObj(bucket -> keys.buyersOn(keys.bucketShard(voucherId, bucket), voucherId)).toList(),
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

    /**
     * The members of the sets (the buyers of each of a voucher's buckets) as numbers, or null when they hold more than
     * {@code max} together.
     */
    private static CompletionStage<long[]> buyers(RedisClusterAsyncCommands<String, String> redis, List<String> keys,
            int max) {
        CompletionStage<Long> size = CompletableFuture.completedFuture(0L);
        for (String key : keys) {
            size = size.thenCombine(redis.scard(key), Long::sum);
        }
        return size.thenCompose(total -> {
            if (total > max) {
                return CompletableFuture.<long[]>completedFuture(null);
            }
            CompletionStage<LongStream> members = CompletableFuture.completedFuture(LongStream.empty());
            for (String key : keys) {
                members = members.thenCombine(redis.smembers(key),
                        (before, set) -> LongStream.concat(before, set.stream().mapToLong(Long::parseLong)));
            }
            return members.thenApply(LongStream::toArray);
        });
    }
}
