package io.seckill.order;

import jakarta.validation.constraints.DecimalMin;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The redelivery policy of order writes, used as placeholders by {@code routes/error-handling.camel.yaml};
 * bound here so a bad value stops the start-up instead of a route.
 */
@Validated
@ConfigurationProperties("seckill.writer")
public record WriterProperties(
        @Min(0) @Max(100) int maximumRedeliveries,
        @Min(0) long redeliveryDelay,
        @DecimalMin("1.0") double backoffMultiplier,
        @Min(0) long maximumRedeliveryDelay) {}
