package io.seckill.api;

import io.seckill.ratelimit.RateLimitProperties;
import io.seckill.ratelimit.RateLimits;
import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import io.seckill.redis.RedisKeys;
import io.seckill.refusal.Refusal;
import java.util.List;
import org.apache.camel.Exchange;
import org.springframework.stereotype.Component;

/**
 * The per-address budget of every API request but the order POST ({@code seckill.rate-limit.per-address-reads}):
 * the first step of the routes that read a voucher or an order, pay, or create a voucher (before the operator's
 * password is checked), and of {@code /api-doc} ({@link ApiDocBudget}). One GCRA bucket per client address in
 * Redis ({@code lua/takeRequestToken-1.lua}), shared by every instance; over it, 429 RATE_LIMITED with Retry-After.
 * The order POST has buckets of its own, taken inside its admission script ({@link RateLimits}).
 */
@Component("requestBudget")
public class RequestBudget {

    private final RateLimitProperties.Limit limit;
    private final ClientAddresses clientAddresses;
    private final RedisKeys keys;
    private final LuaScript<Long> takeToken;
    private final String microsPerToken;
    private final String burst;
    private final String keepMillis;

    public RequestBudget(RateLimitProperties properties, ClientAddresses clientAddresses, RedisKeys keys,
            LuaScripts scripts) {
        this.limit = properties.perAddressReads();
        this.clientAddresses = clientAddresses;
        this.keys = keys;
        this.takeToken = scripts.load("takeRequestToken-1.lua", Long.class);
        this.microsPerToken = RateLimits.microsPerToken(limit);
        this.burst = Long.toString(limit.burst());
        this.keepMillis = Long.toString(RateLimits.KEEP_AFTER_REFILL.toMillis());
    }

    /** @throws Refusal 429 RATE_LIMITED when the request's client address has spent its budget */
    public void take(Exchange exchange) {
        if (!limit.enabled()) {
            return;
        }
        String address = clientAddresses.of(exchange);
        Long waitMicros = takeToken.run(List.of(keys.requestBudget(address)), microsPerToken, burst, keepMillis);
        if (waitMicros != null && waitMicros > 0) {
            throw RateLimits.refusal("requests", "client address " + address, limit, waitMicros);
        }
    }
}
