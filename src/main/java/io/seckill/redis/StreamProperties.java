package io.seckill.redis;

import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * How orders are spread over Redis streams and read back.
 *
 * @param shards number of shard streams; a voucher lives on shard {@code voucherId mod shards}
 * @param group the consumer group every instance reads through
 * @param consumerName this instance's name in the group; stable across restarts so it re-reads its own pending;
 *     no two live instances share one ({@link ConsumerNameLease})
 * @param batchSize entries read (and written to the database) at once
 * @param blockMillis how long one XREADGROUP waits for new entries
 * @param readersPerShard threads reading each shard stream under this instance's name: while one writes its
 *     batch to the database, another reads the next
 */
@Validated
@ConfigurationProperties("seckill.stream")
public record StreamProperties(
        @Min(1) @Max(1024) int shards,
        @NotBlank String group,
        @NotBlank String consumerName,
        @Min(1) @Max(5000) int batchSize,
        @Min(1) @Max(60000) long blockMillis,
        @Min(1) @Max(64) int readersPerShard) {}
