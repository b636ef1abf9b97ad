package io.seckill.lua;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.connection.lettuce.LettuceConverters;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Runs the script of an order request (the admission, its rate limits included) on Lettuce's asynchronous API, on a
 * connection of its own: no call pays for Spring's template, which wraps the connection of every call in a new
 * proxy (a measurable share of the intake's CPU), and every request thread's command shares one pipelined
 * connection. EVALSHA falls back to EVAL when Redis no longer has the script (a restart, SCRIPT FLUSH), as the
 * template does; a failure surfaces as Spring's exception for it, as from the template the other scripts run on.
 */
@Component
public class AsyncScripts {

    private final RedisClusterAsyncCommands<String, String> redis;
    private final Duration timeout;
    private final LettuceExceptionConverter redisExceptions = new LettuceExceptionConverter();

    AsyncScripts(RedisClusterAsyncCommands<String, String> asyncScriptCommands, RedisProperties properties) {
        this.redis = asyncScriptCommands;
        this.timeout = properties.getTimeout() != null ? properties.getTimeout() : Duration.ofSeconds(60);
    }

    /** Sends the script; its reply is read as the script's result type says (a number, a list). */
    public <T> CompletableFuture<T> start(LuaScript<T> script, List<String> keys, String... args) {
        script.requireKeys(keys);
        RedisScript<T> lua = script.script();
        ScriptOutputType output = LettuceConverters.toScriptOutputType(ReturnType.fromJavaType(lua.getResultType()));
        String[] keyArray = keys.toArray(String[]::new);
        return redis.<T>evalsha(lua.getSha1(), output, keyArray, args).toCompletableFuture()
                .exceptionallyCompose(failure -> unwrap(failure) instanceof RedisNoScriptException
                        ? redis.<T>eval(lua.getScriptAsString(), output, keyArray, args).toCompletableFuture()
                        : CompletableFuture.failedFuture(unwrap(failure)));
    }

    /** Waits at most the client's command timeout for a reply of {@link #start}. */
    public <T> T await(CompletableFuture<T> reply) {
        try {
            return reply.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            Throwable cause = unwrap(e.getCause());
            DataAccessException translated = cause instanceof Exception exception
                    ? redisExceptions.convert(exception) : null;
            if (translated != null) {
                throw translated;
            }
            // Such as the IOException of a connection that broke under the command: still Redis's failure.
            throw new RedisSystemException("A script failed: " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw redisExceptions.convert(new RedisCommandTimeoutException(
                    "Redis did not answer a script within " + timeout));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for Redis", e);
        }
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
