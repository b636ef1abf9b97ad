package io.seckill.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.test.context.TestPropertySource;

/**
 * The whole service with both rate limits on (the test profile has them off), small enough to reach in a few
 * requests and slow to refill, so a drained bucket stays drained for seconds: per buyer 3 at once, one more every
 * 4 s; per address 10 at once, one more every 5 s. 127.0.0.1 (where the tests' HttpClient calls from) and
 * 10.0.0.0/8 are trusted proxies; 127.0.0.2 is not.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SeckillIntegrationTest
@TestPropertySource(properties = {
    "seckill.rate-limit.per-buyer.rate=0.25",
    "seckill.rate-limit.per-buyer.burst=3",
    "seckill.rate-limit.per-address.rate=0.2",
    "seckill.rate-limit.per-address.burst=10",
    "seckill.rate-limit.trusted-proxies=127.0.0.1, 10.0.0.0/8"
})
public @interface WithRateLimits {

    int BUYER_BURST = 3;
    int ADDRESS_BURST = 10;
}
