package io.seckill.ratelimit;

import io.seckill.redis.RedisKeys;
import io.seckill.refusal.Reason;
import io.seckill.refusal.Refusal;
import java.time.Duration;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * The per-buyer and per-client-address rate limits of an order request, in the terms of the admission script that
 * applies them ({@code lua/admitOrder-6.lua}: KEYS[5], KEYS[6], ARGV[5] to ARGV[9]), and the 429 RATE_LIMITED they
 * answer, with the seconds until the bucket holds a token again. The buckets are taken in the admission's own step,
 * so the limits cost no round trip of their own. A request that fails validation never gets to the script and
 * costs no token.
 */
@Component
public class RateLimits {

    /** An idle bucket's key lives until the bucket would be full again, plus this; then it is as if new. */
    public static final Duration KEEP_AFTER_REFILL = Duration.ofSeconds(10);

    private static final long MICROS_PER_SECOND = 1_000_000;

    private final RateLimitProperties.Limit perBuyer;
    private final RateLimitProperties.Limit perAddress;
    private final RedisKeys keys;
    private final List<String> scriptArguments;
    private final List<String> scriptArgumentsCharged;

    public RateLimits(RateLimitProperties properties, RedisKeys keys) {
        this.perBuyer = properties.perBuyer();
        this.perAddress = properties.perAddress();
        this.keys = keys;
        this.scriptArguments = List.of(microsPerToken(perBuyer), Long.toString(perBuyer.burst()),
                microsPerToken(perAddress), Long.toString(perAddress.burst()),
                Long.toString(KEEP_AFTER_REFILL.toMillis()));
        this.scriptArgumentsCharged = List.of("0", "0", "0", "0", Long.toString(KEEP_AFTER_REFILL.toMillis()));
    }

    /**
     * The limits off, in the script's ARGV order: for an order request tried again after the script charged its
     * tokens once (a voucher in several buckets whose home bucket was refilled).
     */
    public List<String> scriptArgumentsCharged() {
        return scriptArgumentsCharged;
    }

    /**
     * The buyer's and the client address's buckets on the shard the order is admitted on, in the script's KEYS
     * order, in this key layout (the contract's, or the warm-up's: {@link RedisKeys#warmUp}).
     */
    public static List<String> bucketKeys(RedisKeys keys, int shard, long buyer, String clientAddress) {
        return List.of(keys.rateLimitOn(shard, "buyer", Long.toString(buyer)),
                keys.rateLimitOn(shard, "address", clientAddress));
    }

    /** Both limits, in the script's ARGV order. */
    public List<String> scriptArguments() {
        return scriptArguments;
    }

    public Refusal buyerRefusal(long buyer, long waitMicros) {
        return refusal("order requests", "buyer " + buyer, perBuyer, waitMicros);
    }

    public Refusal addressRefusal(String clientAddress, long waitMicros) {
        return refusal("order requests", "client address " + clientAddress, perAddress, waitMicros);
    }

    /** 429 RATE_LIMITED with Retry-After: the microseconds the bucket needs for a token, in whole seconds. */
    public static Refusal refusal(String what, String who, RateLimitProperties.Limit limit, long waitMicros) {
        long retryAfter = Math.max(1, (waitMicros + MICROS_PER_SECOND - 1) / MICROS_PER_SECOND);
        return new Refusal(Reason.RATE_LIMITED, "Too many " + what + " from " + who + ": at most "
                + rate(limit.rate()) + " per second, " + limit.burst() + " at once; retry in " + retryAfter + " s",
                retryAfter);
    }

    /** GCRA's emission interval; 0 tells the script the limit is off. */
    public static String microsPerToken(RateLimitProperties.Limit limit) {
        return limit.enabled() ? Long.toString(Math.max(1, Math.round(MICROS_PER_SECOND / limit.rate()))) : "0";
    }

    private static String rate(double rate) {
        return rate == Math.rint(rate) ? Long.toString((long) rate) : Double.toString(rate);
    }
}
