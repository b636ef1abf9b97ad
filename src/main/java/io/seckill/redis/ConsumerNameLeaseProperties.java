package io.seckill.redis;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.hibernate.validator.constraints.time.DurationMax;
import org.hibernate.validator.constraints.time.DurationMin;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The lease that keeps {@code seckill.stream.consumer-name} to one live instance ({@link ConsumerNameLease}).
 *
 * @param ttl how long the lease lasts after its last renewal (it is renewed every third of it): how long a
 *     restart after a crash may wait for its own name, and how long Redis may be unreachable before the lease
 *     lapses
 */
@Validated
@ConfigurationProperties("seckill.stream.consumer-name-lease")
public record ConsumerNameLeaseProperties(@NotNull @DurationMin(seconds = 3) @DurationMax(minutes = 10) Duration ttl) {}
