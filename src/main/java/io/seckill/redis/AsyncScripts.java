package io.seckill.redis;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import java.util.function.Supplier;
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
    private final ReplicationWaits waits;
    private final LettuceExceptionConverter redisExceptions = new LettuceExceptionConverter();

    AsyncScripts(RedisClusterAsyncCommands<String, String> asyncScriptCommands, ReplicationWaits waits,
            RedisProperties properties) {
        this.redis = asyncScriptCommands;
        this.waits = waits;
        this.timeout = properties.getTimeout() != null ? properties.getTimeout() : Duration.ofSeconds(60);
    }

    /**
     * Sends the script; its reply is read as the script's result type says (a number, a list). The future never
     * blocks a thread: it completes on the Redis client's I/O thread, with Spring's exception for a failure (as
     * from the template the other scripts run on), or with a timeout after the client's command timeout.
     */
    public <T> CompletableFuture<T> run(LuaScript<T> script, List<String> keys, String... args) {
        ScriptCall<T> call = ScriptCall.of(script, keys, args);
        return answered(evalsha(call).exceptionallyCompose(failure -> ifNoScript(failure, () -> eval(call))));
    }

    /**
     * The script, then the {@code WAIT} that covers it ({@link ReplicationWaits}: one sent right behind it, pipelined,
     * or the next one when one is out): whether as many replicas as asked acknowledged the writes of this connection
     * up to the script. A script Redis had forgotten (EVALSHA answered NOSCRIPT, the EVAL came after the WAIT) is
     * waited for again.
     */
    public <T> CompletableFuture<Replicated<T>> runReplicated(LuaScript<T> script, List<String> keys, String... args) {
        ScriptCall<T> call = ScriptCall.of(script, keys, args);
        return answered(replicated(call, this::evalsha)
                .exceptionallyCompose(failure -> ifNoScript(failure, () -> replicated(call, this::eval))));
    }

    private <T> CompletableFuture<Replicated<T>> replicated(ScriptCall<T> call,
            Function<ScriptCall<T>, CompletableFuture<T>> send) {
        long connection = waits.connection();
        CompletableFuture<T> reply = send.apply(call);
        CompletableFuture<Long> acknowledgements = waits.covering();
        // A script that failed answers at once: the WAIT it shares may be held by the client until it reconnects or
        // gives the command up (a Sentinel failover held each new buyer until the promotion). Not thenCombine,
        // which waits for both. A WAIT that failed after the script answered (its connection broke, or the client
        // refused to send it while reconnecting) acknowledged nothing, and the script's answer stands: an order it
        // took was taken, and its buyer must not hear that nothing was done.
        return reply.thenCompose(value -> acknowledgements.handle((acknowledged, failure) -> new Replicated<>(value,
                failure == null && waits.acknowledged(acknowledged, connection))));
    }

    /** One script's call: what EVALSHA and EVAL both send. */
    private record ScriptCall<T>(RedisScript<T> lua, ScriptOutputType output, String[] keys, String[] args) {

        static <T> ScriptCall<T> of(LuaScript<T> script, List<String> keys, String[] args) {
            script.requireKeys(keys);
            RedisScript<T> lua = script.script();
            return new ScriptCall<>(lua,
                    LettuceConverters.toScriptOutputType(ReturnType.fromJavaType(lua.getResultType())),
                    keys.toArray(String[]::new), args);
        }
    }

    private <T> CompletableFuture<T> evalsha(ScriptCall<T> call) {
        return redis.<T>evalsha(call.lua().getSha1(), call.output(), call.keys(), call.args()).toCompletableFuture();
    }

    private <T> CompletableFuture<T> eval(ScriptCall<T> call) {
        return redis.<T>eval(call.lua().getScriptAsString(), call.output(), call.keys(), call.args())
                .toCompletableFuture();
    }

    /** A script Redis no longer has (a restart, SCRIPT FLUSH) is sent whole, as the template does; else the failure. */
    private static <R> CompletableFuture<R> ifNoScript(Throwable failure, Supplier<CompletableFuture<R>> resend) {
        Throwable cause = unwrap(failure);
        return cause instanceof RedisNoScriptException ? resend.get() : CompletableFuture.failedFuture(cause);
    }

    /** @param acknowledged whether as many replicas as asked acknowledged the writes up to the reply */
    public record Replicated<T>(T reply, boolean acknowledged) {}

    /** Whether the key exists, on the same terms as {@link #run}. */
    public CompletableFuture<Boolean> exists(String key) {
        return answered(redis.exists(key).toCompletableFuture().thenApply(count -> count > 0));
    }

    private <T> CompletableFuture<T> answered(CompletableFuture<T> reply) {
        CompletableFuture<T> answer = new CompletableFuture<>();
        reply.orTimeout(timeout.toNanos(), TimeUnit.NANOSECONDS).whenComplete((value, failure) -> {
            if (failure == null) {
                answer.complete(value);
            } else {
                answer.completeExceptionally(translated(unwrap(failure)));
            }
        });
        return answer;
    }

    private RuntimeException translated(Throwable cause) {
        if (cause instanceof TimeoutException) {
            cause = new RedisCommandTimeoutException("Redis did not answer within " + timeout);
        }
        DataAccessException translated = cause instanceof Exception exception
                ? redisExceptions.convert(exception) : null;
        if (translated != null) {
            return translated;
        }
        // Such as the IOException of a connection that broke under the command: still Redis's failure.
        return new RedisSystemException("A Redis command failed: " + cause.getMessage(), cause);
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
