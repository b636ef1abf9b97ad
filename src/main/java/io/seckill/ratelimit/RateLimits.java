package io.seckill.ratelimit;

import io.seckill.api.ApiException;
import io.seckill.api.ProblemCode;
import io.seckill.stream.RedisKeys;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.boot.autoconfigure.data.redis.RedisProperties;
import io.lettuce.core.RedisCommandTimeoutException;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.connection.lettuce.LettuceExceptionConverter;
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
    private final Duration timeout;
    private final LettuceExceptionConverter redisExceptions = new LettuceExceptionConverter();

    public RateLimits(RateLimitProperties properties, TokenBuckets buckets, RedisKeys keys, RedisProperties redis) {
        this.perBuyer = new Limiter("buyer", properties.perBuyer(), buckets, keys);
        this.perAddress = new Limiter("address", properties.perAddress(), buckets, keys);
        this.timeout = redis.getTimeout() != null ? redis.getTimeout() : Duration.ofSeconds(60);
    }

    public void check(long buyer, String clientAddress) {
        String buyerId = Long.toString(buyer);
        CompletableFuture<Long> buyerTaken = perBuyer.take(buyerId);
        CompletableFuture<Long> addressTaken = perAddress.take(clientAddress);
        long buyerWait = await(buyerTaken);
        long addressWait = await(addressTaken);
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

    /** A Redis failure surfaces as Spring's exception for it, as from the template the other scripts run on. */
    private long await(CompletableFuture<Long> taken) {
        try {
            return taken.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            Throwable cause = TokenBuckets.unwrap(e.getCause());
            DataAccessException translated = cause instanceof Exception exception
                    ? redisExceptions.convert(exception) : null;
            if (translated != null) {
                throw translated;
            }
            // Such as the IOException of a connection that broke under the command: still Redis's failure.
            throw new RedisSystemException("A rate-limit check failed: " + cause.getMessage(), cause);
        } catch (TimeoutException e) {
            throw redisExceptions.convert(new RedisCommandTimeoutException(
                    "Redis did not answer a rate-limit check within " + timeout));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while checking a rate limit", e);
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
