package io.seckill.ratelimit;

import io.seckill.api.ApiException;
import io.seckill.api.ProblemCode;
import io.seckill.lua.AsyncScripts;
import io.seckill.stream.RedisKeys;
import java.util.concurrent.CompletableFuture;
import org.springframework.stereotype.Component;

/**
 * Takes one token per order request from the buyer's bucket and from the client address's, before the admission
 * script runs; an empty bucket is 429 RATE_LIMITED with the seconds until it holds a token again. Both buckets are
 * asked at once (one round trip). The buyer's verdict goes first: a buyer over their own limit hears so, and the
 * address's token they took is given back, so one buyer hammering away spends only their own tokens, not those of
 * everyone behind the same address (a NAT, an office). A request that fails validation never gets here and costs
 * no token.
 */
@Component("rateLimits")
public class RateLimits {

    private static final long MICROS_PER_SECOND = 1_000_000;
    private static final CompletableFuture<Long> NOT_LIMITED = CompletableFuture.completedFuture(0L);

    private final Limiter perBuyer;
    private final Limiter perAddress;
    private final AsyncScripts scripts;

    public RateLimits(RateLimitProperties properties, TokenBuckets buckets, RedisKeys keys, AsyncScripts scripts) {
        this.perBuyer = new Limiter("buyer", properties.perBuyer(), buckets, keys);
        this.perAddress = new Limiter("address", properties.perAddress(), buckets, keys);
        this.scripts = scripts;
    }

    public void check(long buyer, String clientAddress) {
        String buyerId = Long.toString(buyer);
        CompletableFuture<Long> buyerTaken = perBuyer.take(buyerId);
        CompletableFuture<Long> addressTaken = perAddress.take(clientAddress);
        long buyerWait = scripts.await(buyerTaken);
        long addressWait = scripts.await(addressTaken);
        if (buyerWait > 0) {
            if (addressWait == 0) {
                perAddress.giveBack(clientAddress);
            }
            throw perBuyer.refusal("buyer " + buyer, buyerWait);
        }
        if (addressWait > 0) {
            throw perAddress.refusal("client address " + clientAddress, addressWait);
        }
    }

    private static String rate(double rate) {
        return rate == Math.rint(rate) ? Long.toString((long) rate) : Double.toString(rate);
    }

    /** One kind of limit; its buckets live at {@code seckill:rate-limit:{<kind>:<who>}}. */
    private static final class Limiter {

        private final String kind;
        private final RateLimitProperties.Limit limit;
        private final TokenBuckets.Bucket bucket;
        private final TokenBuckets buckets;
        private final RedisKeys keys;

        Limiter(String kind, RateLimitProperties.Limit limit, TokenBuckets buckets, RedisKeys keys) {
            this.kind = kind;
            this.limit = limit;
            this.bucket = limit.enabled() ? TokenBuckets.Bucket.of(limit) : null;
            this.buckets = buckets;
            this.keys = keys;
        }

        CompletableFuture<Long> take(String who) {
            return bucket == null ? NOT_LIMITED : buckets.take(keys.rateLimit(kind, who), bucket);
        }

        void giveBack(String who) {
            if (bucket != null) {
                buckets.giveBack(keys.rateLimit(kind, who), bucket);
            }
        }

        ApiException refusal(String description, long waitMicros) {
            long retryAfter = Math.max(1, (waitMicros + MICROS_PER_SECOND - 1) / MICROS_PER_SECOND);
            return new ApiException(ProblemCode.RATE_LIMITED, "Too many order requests from " + description
                    + ": at most " + rate(limit.rate()) + " per second, " + limit.burst() + " at once; retry in "
                    + retryAfter + " s", retryAfter);
        }
    }
}
