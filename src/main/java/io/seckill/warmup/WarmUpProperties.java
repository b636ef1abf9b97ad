package io.seckill.warmup;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The self warm-up before readiness ({@link WarmUp}).
 *
 * @param enabled false: the API opens as soon as the routes run, cold
 * @param maxDuration the warm-up stops after this long whatever its rate
 * @param minDuration ... and not before this long; between the two it stops once the JIT's compilers are nearly idle
 * @param concurrency order requests it keeps in flight
 */
@Validated
@ConfigurationProperties("seckill.warm-up")
public record WarmUpProperties(boolean enabled, @NotNull Duration maxDuration, @NotNull Duration minDuration,
        @Min(1) @Max(512) int concurrency) {}
