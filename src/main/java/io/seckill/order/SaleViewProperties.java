package io.seckill.order;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Refusals answered from this instance's memory of Redis's answers ({@link SaleView}).
 *
 * @param enabled false: every order request runs the admission script, as before the view
 * @param ttl how long a refusal learned from Redis is repeated without asking again; a unit that comes back is
 *     normally announced at once ({@code channel}), this bounds how long a lost announcement can hide it
 * @param startMargin NOT_STARTED is answered from memory only until this long before the start by Redis's clock
 * @param maxBuyers a sold-out voucher with more buyers than this is not copied into memory: its refusals go on to
 *     Redis (a copy costs 8 bytes per buyer)
 * @param channel the Redis Pub/Sub channel on which the scripts that return units announce the voucher
 */
@Validated
@ConfigurationProperties("seckill.sale-view")
public record SaleViewProperties(boolean enabled, @NotNull Duration ttl, @NotNull Duration startMargin,
        @Min(0) int maxBuyers, @NotBlank String channel) {}
