package io.seckill.voucher;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * How the service notices that Redis forgot sale state and rebuilds it ({@link RedisStateCheck}).
 *
 * @param checkPeriod how often Redis is checked while the service runs (the longest a flush goes unnoticed)
 * @param staleMarkAfter a voucher marked rebuilding for longer than this was left by a rebuild that died; any
 *     instance takes it over
 * @param retryAfter the {@code Retry-After} of a 503 VOUCHER_REBUILDING
 */
@Validated
@ConfigurationProperties("seckill.redis.state-check")
public record RedisStateProperties(@NotNull Duration checkPeriod, @NotNull Duration staleMarkAfter,
        @NotNull Duration retryAfter) {}
