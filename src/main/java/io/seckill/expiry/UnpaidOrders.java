package io.seckill.expiry;

import io.seckill.redis.RedisKeys;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ZSetOperations.TypedTuple;
import org.springframework.stereotype.Component;

/**
 * The unpaid orders waiting in Redis, per shard: {@code seckill:{sN}:orders:due} (score payBefore) and
 * {@code seckill:{sN}:orders:cancelling} (score lease deadline), members {@code <orderId>:<userId>}.
 */
@Component
public class UnpaidOrders {

    private final StringRedisTemplate redis;
    private final RedisKeys keys;
    private final Clock clock;

    public UnpaidOrders(StringRedisTemplate redis, RedisKeys keys) {
        this.redis = redis;
        this.keys = keys;
        this.clock = Clock.systemUTC();
    }

    /** Whether the buyer's order is scheduled on any shard: accepted, and its row not written yet or unpaid. */
    public boolean scheduled(long orderId, long userId) {
        String member = RedisKeys.unpaidOrder(orderId, userId);
        for (String stream : keys.orderStreams()) {
            // ZSCORE
            if (redis.opsForZSet().score(keys.dueOrdersOf(stream), member) != null
                    || redis.opsForZSet().score(keys.cancellingOrdersOf(stream), member) != null) {
                return true;
            }
        }
        return false;
    }

    /** A paid order needs no expiry: ZREM from its shard's due orders (if taken already, the expiry drops it). */
    public void unschedule(int shard, long orderId, long userId) {
        redis.opsForZSet().remove(keys.dueOrdersOf(keys.ordersOn(shard)), RedisKeys.unpaidOrder(orderId, userId));
    }

    /**
     * How long the most overdue unpaid order has waited past its window (or, once taken, past its lease) without
     * being settled; zero when none is.
     */
    public Duration oldestOverdueAge() {
        long now = clock.millis();
        long oldest = now;
        for (String stream : keys.orderStreams()) {
            for (String key : List.of(keys.dueOrdersOf(stream), keys.cancellingOrdersOf(stream))) {
                // ZRANGE key 0 0 WITHSCORES
                Set<TypedTuple<String>> first = redis.opsForZSet().rangeWithScores(key, 0, 0);
                if (first != null && !first.isEmpty() && first.iterator().next().getScore() != null) {
                    oldest = Math.min(oldest, first.iterator().next().getScore().longValue());
                }
            }
        }
        return Duration.ofMillis(Math.max(0, now - oldest));
    }
}
