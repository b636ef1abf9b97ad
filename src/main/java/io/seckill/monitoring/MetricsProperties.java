package io.seckill.monitoring;

import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * The service's own metrics.
 *
 * @param backlogRefresh how old a reading of the streams (the {@code seckill.stream.*} and
 *     {@code seckill.dead.letters} gauges, the orderBacklog health) may be before the next scrape or health check
 *     asks Redis again: scrapes and probes cost Redis at most one round of commands per interval
 * @param voucherStockPeriod how often route {@code voucher-stock-gauges} reads the stock of the vouchers on sale for
 *     the {@code seckill.voucher.remaining} and {@code seckill.voucher.bucket.remaining} gauges
 */
@Validated
@ConfigurationProperties("seckill.metrics")
public record MetricsProperties(@NotNull Duration backlogRefresh, @NotNull Duration voucherStockPeriod) {}
