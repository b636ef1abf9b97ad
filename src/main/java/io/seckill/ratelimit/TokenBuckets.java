package io.seckill.ratelimit;

import io.seckill.lua.AsyncScripts;
import io.seckill.lua.LuaScript;
import io.seckill.lua.LuaScripts;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.springframework.stereotype.Component;

/**
 * Rate-limit buckets in Redis ({@code lua/takeToken-1.lua}, {@code lua/returnToken-1.lua}), asynchronously: the
 * caller sends both of a request's buckets before waiting for either.
 */
@Component
class TokenBuckets {

    /** An idle bucket's key lives until the bucket would be full again, plus this; then it is as if new. */
    static final Duration KEEP_AFTER_REFILL = Duration.ofSeconds(10);

    private final AsyncScripts redis;
    private final LuaScript<Long> takeToken;
    private final LuaScript<Long> returnToken;

    TokenBuckets(AsyncScripts redis, LuaScripts scripts) {
        this.redis = redis;
        this.takeToken = scripts.load("takeToken-1.lua", Long.class);
        this.returnToken = scripts.load("returnToken-1.lua", Long.class);
    }

    /** Completes with 0 when a token was taken, otherwise the microseconds until one is back. */
    CompletableFuture<Long> take(String bucket, Bucket limit) {
        return redis.start(takeToken, List.of(bucket), Long.toString(limit.microsPerToken()),
                Long.toString(limit.burst()), Long.toString(KEEP_AFTER_REFILL.toMillis()));
    }

    /** Puts back a token {@link #take} took; nobody waits for it, and one lost to a failure costs one token. */
    void giveBack(String bucket, Bucket limit) {
        redis.start(returnToken, List.of(bucket), Long.toString(limit.microsPerToken()));
    }
    /**
     * One limit in the script's terms.
     *
     * @param microsPerToken see {@code lua/takeToken-1.lua} ARGV[1]
     */
    record Bucket(long microsPerToken, long burst) {

        static Bucket of(RateLimitProperties.Limit limit) {
            return new Bucket(Math.max(1, Math.round(1_000_000 / limit.rate())), limit.burst());
        }
    }
}
