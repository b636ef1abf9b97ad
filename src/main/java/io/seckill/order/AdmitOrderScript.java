package io.seckill.order;

import io.seckill.ratelimit.RateLimits;
import io.seckill.redis.AsyncScripts;
import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import io.seckill.redis.RedisKeys;
import io.seckill.redis.ReplicaAckProperties;
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
    private final RedisKeys warmUpKeys;
    private final RateLimits rateLimits;
    private final String paymentTimeoutMillis;
    private final ReplicaAckProperties replicaAcks;

    public AdmitOrderScript(AsyncScripts redis, LuaScripts scripts, RedisKeys keys, RateLimits rateLimits,
            OrderProperties orders, ReplicaAckProperties replicaAcks) {
        this.redis = redis;
        this.script = scripts.load("admitOrder-6.lua", List.class);
        this.keys = keys;
        this.warmUpKeys = keys.warmUp();
        this.rateLimits = rateLimits;
        this.paymentTimeoutMillis = Long.toString(orders.paymentTimeout().toMillis());
        this.replicaAcks = replicaAcks;
    }

    /**
     * What the script answered: the outcome; for a rate-limit refusal the microseconds until a token; for
     * NOT_STARTED the sale's start and the Redis server's time when it ran (epoch ms); for OTHER_BUCKETS the
     * voucher's number of stock buckets; and whether as many replicas as {@code seckill.redis.replica-acks} asks
     * acknowledged its writes (always, when none are asked).
     */
    public record Answer(AdmissionOutcome outcome, long waitMicros, long beginAt, long redisNow, boolean replicated) {

        static Answer of(List<?> reply, boolean replicated) {
            AdmissionOutcome outcome = AdmissionOutcome.ofScriptCode(reply.isEmpty() ? null : reply.get(0));
            if (outcome == AdmissionOutcome.NOT_STARTED && reply.size() >= 4) {
                return new Answer(outcome, 0, (Long) reply.get(1), (Long) reply.get(3), replicated);
            }
            return new Answer(outcome, reply.size() > 1 ? (Long) reply.get(1) : 0, 0, 0, replicated);
        }

        /** The voucher's number of stock buckets, of an OTHER_BUCKETS answer. */
        public int buckets() {
            return (int) waitMicros;
        }
    }

    /**
     * Completes on the Redis client's I/O thread: what follows must not block.
     *
     * @param buckets the voucher's number of stock buckets as this instance knows it: the order goes to the buyer's
     *     home bucket among them (the script answers OTHER_BUCKETS when the voucher has another number)
     * @param charged the request's rate-limit tokens were taken by an earlier try: none is taken again
     * @param warmUp on the warm-up's keys ({@link RedisKeys#warmUp}) rather than the contract's
     */
    public CompletableFuture<Answer> admit(long voucherId, long userId, long orderId, String clientAddress,
            int buckets, boolean charged, boolean warmUp) {
        RedisKeys layout = warmUp ? warmUpKeys : keys;
        int shard = layout.homeShard(voucherId, userId, buckets);
        String orders = layout.ordersOn(shard);
        List<String> scriptKeys = new ArrayList<>(6);
        Collections.addAll(scriptKeys, layout.voucherOn(shard, voucherId), layout.buyersOn(shard, voucherId), orders,
                layout.dueOrdersOf(orders));
        scriptKeys.addAll(RateLimits.bucketKeys(layout, shard, userId, clientAddress));
        List<String> args = new ArrayList<>(10);
        Collections.addAll(args, Long.toString(orderId), Long.toString(voucherId), Long.toString(userId),
                paymentTimeoutMillis);
        args.addAll(charged ? rateLimits.scriptArgumentsCharged() : rateLimits.scriptArguments());
        args.add(Integer.toString(buckets));
        if (!replicaAcks.enabled()) {
            return redis.run(script, scriptKeys, args.toArray(String[]::new)).thenApply(reply -> Answer.of(reply, true));
        }
        return redis.runReplicated(script, scriptKeys, args.toArray(String[]::new))
                .thenApply(replicated -> Answer.of(replicated.reply(), replicated.acknowledged()));
    }
}
