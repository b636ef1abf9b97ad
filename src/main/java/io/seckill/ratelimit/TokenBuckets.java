package io.seckill.ratelimit;

import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.seckill.lua.LuaScripts;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Rate-limit buckets in Redis ({@code lua/takeToken-1.lua}, {@code lua/returnToken-1.lua}), asynchronously: the
 * caller sends both of a request's buckets before waiting for either. EVALSHA falls back to EVAL when Redis no
 * longer has the script (a restart, SCRIPT FLUSH), as Spring's template does for the other scripts.
 */
@Component
class TokenBuckets {

    /** An idle bucket's key lives until the bucket would be full again, plus this; then it is as if new. */
    static final Duration KEEP_AFTER_REFILL = Duration.ofSeconds(10);

    private final RedisClusterAsyncCommands<String, String> redis;
    private final RedisScript<Long> takeToken;
    private final RedisScript<Long> returnToken;

    TokenBuckets(RedisClusterAsyncCommands<String, String> rateLimitCommands, LuaScripts scripts) {
        this.redis = rateLimitCommands;
        this.takeToken = scripts.load("takeToken-1.lua", Long.class).script();
        this.returnToken = scripts.load("returnToken-1.lua", Long.class).script();
    }

    /** Completes with 0 when a token was taken, otherwise the microseconds until one is back. */
    CompletableFuture<Long> take(String bucket, Bucket limit) {
        return run(takeToken, bucket, Long.toString(limit.microsPerToken()), Long.toString(limit.burst()),
                Long.toString(KEEP_AFTER_REFILL.toMillis()));
    }

    /** Puts back a token {@link #take} took; nobody waits for it, and one lost to a failure costs one token. */
    void giveBack(String bucket, Bucket limit) {
        run(returnToken, bucket, Long.toString(limit.microsPerToken()));
    }

    private CompletableFuture<Long> run(RedisScript<Long> script, String key, String... args) {
        String[] keys = {key};
        CompletionStage<Long> bySha = redis.<Long>evalsha(script.getSha1(), ScriptOutputType.INTEGER, keys, args);
        return bySha.toCompletableFuture().exceptionallyCompose(failure -> unwrap(failure) instanceof RedisNoScriptException
                ? redis.<Long>eval(script.getScriptAsString(), ScriptOutputType.INTEGER, keys, args)
                        .toCompletableFuture()
                : CompletableFuture.failedFuture(unwrap(failure)));
    }

    static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
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
