package io.seckill.order;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The payment window of an order and the expiry of unpaid ones ({@code routes/order-expiry.camel.yaml}).
 *
 * @param paymentTimeout how long a winner has to pay, fixed per order at admission (payBefore)
 * @param expiry how unpaid orders are cancelled
 */
@Validated
@ConfigurationProperties("seckill.order")
public record OrderProperties(@NotNull Duration paymentTimeout, @NotNull @Valid Expiry expiry) {

    /**
     * @param periodMillis how often each instance takes due orders
     * @param batchSize orders taken per shard and round
     * @param lease how long an instance has to cancel an order it took before any instance may take it again;
     *     far longer than one cancellation (a transaction and a script)
     * @param notWrittenDelay how long an order whose row is not written yet waits before it is tried again
     * @param maxOverdueAge readiness goes DOWN while an unpaid order waits this long past its window
     */
    public record Expiry(
            @Min(50) long periodMillis,
            @Min(1) @Max(5000) int batchSize,
            @NotNull Duration lease,
            @NotNull Duration notWrittenDelay,
            @NotNull Duration maxOverdueAge) {}
}
