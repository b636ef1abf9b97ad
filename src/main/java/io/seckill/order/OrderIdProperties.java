package io.seckill.order;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * Order ids ({@link OrderIdGenerator}).
 *
 * @param workerLeaseTtl how long the lease on this instance's worker number lasts after its last renewal (it is
 *     renewed every third of it, {@link WorkerNumberLease}): how long a crashed instance's number stays taken, and
 *     how long Redis may be unreachable before this instance stops issuing ids
 */
@Validated
@ConfigurationProperties("seckill.order-id")
public record OrderIdProperties(
        @NotNull @DurationMin(millis = 300) @DurationMax(minutes = 10) Duration workerLeaseTtl) {}
