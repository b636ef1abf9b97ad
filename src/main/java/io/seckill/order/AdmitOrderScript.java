package io.seckill.order;

import io.seckill.lua.AsyncScripts;
import io.seckill.lua.LuaScript;
import io.seckill.lua.LuaScripts;
import io.seckill.ratelimit.RateLimits;
import io.seckill.stream.RedisKeys;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.springframework.stereotype.Component;

/**
 * The one atomic step of the intake ({@code lua/admitOrder-6.lua}): the rate limits' tokens and the admission in
 * one round trip, on the order requests' own connection.
 */
@Component
public class AdmitOrderScript {

    private final AsyncScripts redis;
    @SuppressWarnings("rawtypes")
    private final LuaScript<List> script;
    private final RedisKeys keys;
    private final RateLimits rateLimits;
    private final String paymentTimeoutMillis;

    public AdmitOrderScript(AsyncScripts redis, LuaScripts scripts, RedisKeys keys, RateLimits rateLimits,
            OrderProperties orders) {
        this.redis = redis;
        this.script = scripts.load("admitOrder-6.lua", List.class);
        this.keys = keys;
        this.rateLimits = rateLimits;
        this.paymentTimeoutMillis = Long.toString(orders.paymentTimeout().toMillis());
    }

    /** What the script answered: the outcome and, for a rate-limit refusal, the microseconds until a token. */
    public record Answer(AdmissionOutcome outcome, long waitMicros) {
    }

    /** Completes on the Redis client's I/O thread: what follows must not block. */
    public CompletableFuture<Answer> admit(long voucherId, long userId, long orderId, String clientAddress) {
        String orders = keys.ordersOf(voucherId);
        List<String> scriptKeys = new ArrayList<>(6);
        Collections.addAll(scriptKeys, keys.voucher(voucherId), keys.buyers(voucherId), orders,
                keys.dueOrdersOf(orders));
        scriptKeys.addAll(rateLimits.bucketKeys(voucherId, userId, clientAddress));
        List<String> args = new ArrayList<>(9);
        Collections.addAll(args, Long.toString(orderId), Long.toString(voucherId), Long.toString(userId),
                paymentTimeoutMillis);
        args.addAll(rateLimits.scriptArguments());
        return redis.run(script, scriptKeys, args.toArray(String[]::new)).thenApply(reply -> new Answer(
                AdmissionOutcome.ofScriptCode(reply.isEmpty() ? null : reply.get(0)),
                reply.size() > 1 ? (Long) reply.get(1) : 0));
    }
}
