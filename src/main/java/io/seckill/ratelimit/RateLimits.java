package io.seckill.ratelimit;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import io.seckill.api.ApiException;
import io.seckill.api.ProblemCode;
import io.seckill.stream.RedisKeys;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.springframework.stereotype.Component;

/**
 * Takes one token per order request from the buyer's bucket, then from the client address's, before the
 * admission script runs; an empty bucket is 429 RATE_LIMITED with the seconds until it holds a token again. The
 * buyer goes first so that one buyer hammering away spends only their own tokens, not those of everyone behind
 * the same address (a NAT, an office). A request that fails validation never gets here and costs no token.
 */
@Component("rateLimits")
public class RateLimits {

    private static final double NANOS_PER_SECOND = 1e9;

    private final Limiter perBuyer;
    private final Limiter perAddress;

    public RateLimits(RateLimitProperties properties, ProxyManager<String> buckets, RedisKeys keys) {
        this.perBuyer = new Limiter("buyer", properties.perBuyer(), buckets, keys);
        this.perAddress = new Limiter("address", properties.perAddress(), buckets, keys);
    }

    public void check(long buyer, String clientAddress) {
        perBuyer.take(Long.toString(buyer), "buyer " + buyer);
        perAddress.take(clientAddress, "client address " + clientAddress);
    }

    private static String rate(double rate) {
        return rate == Math.rint(rate) ? Long.toString((long) rate) : Double.toString(rate);
    }

    /** One kind of limit; its buckets live at {@code seckill:rate-limit:{<kind>:<who>}}. */
    private static final class Limiter {

        private final String kind;
        private final RateLimitProperties.Limit limit;
        private final BucketConfiguration configuration;
        private final ProxyManager<String> buckets;
        private final RedisKeys keys;

        Limiter(String kind, RateLimitProperties.Limit limit, ProxyManager<String> buckets, RedisKeys keys) {
            this.kind = kind;
            this.limit = limit;
            this.configuration = limit.enabled() ? BucketConfiguration.builder()
                    // Greedy refill is continuous: one token every 1/rate seconds is rate tokens a second.
                    .addLimit(Bandwidth.builder().capacity(limit.burst())
                            .refillGreedy(1, Duration.ofNanos(Math.round(NANOS_PER_SECOND / limit.rate()))).build())
                    .build() : null;
            this.buckets = buckets;
            this.keys = keys;
        }

        void take(String who, String description) {
            if (configuration == null) {
                return;
            }
            ConsumptionProbe probe = buckets.builder().build(keys.rateLimit(kind, who), () -> configuration)
                    .tryConsumeAndReturnRemaining(1);
            if (!probe.isConsumed()) {
                long retryAfter = Math.max(1, TimeUnit.NANOSECONDS.toSeconds(
                        probe.getNanosToWaitForRefill() + TimeUnit.SECONDS.toNanos(1) - 1));
                throw new ApiException(ProblemCode.RATE_LIMITED, "Too many order requests from " + description
                        + ": at most " + rate(limit.rate()) + " per second, " + limit.burst() + " at once; retry in "
                        + retryAfter + " s", retryAfter);
            }
        }
    }
}
