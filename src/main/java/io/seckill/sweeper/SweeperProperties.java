package io.seckill.sweeper;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The pending-list sweeper.
 *
 * @param periodMillis how often it looks
 * @param minIdleMillis how long an entry must have waited unacknowledged before it is claimed; longer than a
 *     batch's whole redelivery schedule, so a live consumer still retrying keeps its entries
 * @param maxDeliveries deliveries after which an entry goes to the dead letters instead of the writer again
 * @param batchSize entries claimed per stream and sweep
 */
@Validated
@ConfigurationProperties("seckill.sweeper")
public record SweeperProperties(
        @Min(100) long periodMillis,
        @Min(1) long minIdleMillis,
        @Min(1) @Max(1000) int maxDeliveries,
        @Min(1) @Max(5000) int batchSize) {

    /**
     * How often the readers and the sweeper refresh the entries they hold: every third of min-idle, so two
     * refreshes can fail before an entry held looks idle.
     */
    public long keepAliveMillis() {
        return Math.max(1, minIdleMillis / 3);
    }
}
