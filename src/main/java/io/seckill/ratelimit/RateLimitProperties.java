package io.seckill.ratelimit;

import jakarta.validation.Valid;
import jakarta.validation.constraints.DecimalMax;
import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Rate limits of the API, shared by every instance through Redis.
 *
 * @param perBuyer per {@code X-User-Id}, on {@code POST /api/vouchers/{id}/orders}
 * @param perAddress per client address, on {@code POST /api/vouchers/{id}/orders}
 * @param perAddressReads per client address, on every other API request (reading a voucher or an order, paying,
 *     creating a voucher, {@code /api-doc})
 * @param trustedProxies addresses or CIDR ranges of the proxies whose {@code X-Forwarded-For} is believed
 */
@Validated
@ConfigurationProperties("seckill.rate-limit")
public record RateLimitProperties(
        @NotNull @Valid Limit perBuyer,
        @NotNull @Valid Limit perAddress,
        @NotNull @Valid Limit perAddressReads,
        List<String> trustedProxies) {

    public RateLimitProperties {
        trustedProxies = trustedProxies == null ? List.of() : List.copyOf(trustedProxies);
    }

    /**
     * A token bucket: {@code burst} requests at once, refilled at {@code rate} per second.
     *
     * @param rate requests per second, fractions allowed (0.5: one every two seconds); 0 switches the limit off
     * @param burst requests taken at once from a full bucket
     */
    public record Limit(@DecimalMin("0") @DecimalMax("1000000") double rate, @Min(1) long burst) {

        public boolean enabled() {
            return rate > 0;
        }
    }
}
