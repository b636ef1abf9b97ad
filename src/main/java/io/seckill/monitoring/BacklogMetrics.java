package io.seckill.monitoring;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.TimeGauge;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.seckill.redis.RedisKeys;
import java.util.concurrent.TimeUnit;
import java.util.function.ToDoubleFunction;
import org.springframework.stereotype.Component;

/**
 * Per-shard gauges of the order streams, tag {@code shard}. Each reads the shared {@link StreamBacklog}
 * reading, so a scrape of them all costs Redis one round at most; NaN while Redis cannot be read.
 */
@Component
class BacklogMetrics implements MeterBinder {

    private final StreamBacklog backlog;
    private final int shards;

    BacklogMetrics(StreamBacklog backlog, RedisKeys keys) {
        this.backlog = backlog;
        this.shards = keys.orderStreams().size();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        for (int shard = 0; shard < shards; shard++) {
            gauge(registry, "seckill.stream.length", "Orders accepted and not yet written (XLEN)", shard,
                    ShardBacklog::length);
            gauge(registry, "seckill.stream.pending", "Orders delivered to a writer, not yet acknowledged", shard,
                    ShardBacklog::pending);
            gauge(registry, "seckill.stream.lag", "Orders not yet delivered to any writer", shard,
                    ShardBacklog::lag);
            gauge(registry, "seckill.dead.letters", "Orders in the dead letters, waiting for an operator", shard,
                    ShardBacklog::deadLetters);
            int index = shard;
            TimeGauge.builder("seckill.stream.oldest.pending.age", backlog, TimeUnit.MILLISECONDS,
                            b -> value(b, index, s -> s.oldestPendingAge().toMillis()))
                    .description("Time since the oldest pending order was accepted")
                    .tag("shard", Integer.toString(shard))
                    .strongReference(true)
                    .register(registry);
        }
    }

    private void gauge(MeterRegistry registry, String name, String description, int shard,
            ToDoubleFunction<ShardBacklog> figure) {
        Gauge.builder(name, backlog, b -> value(b, shard, figure))
                .description(description)
                .tag("shard", Integer.toString(shard))
                .strongReference(true)
                .register(registry);
    }

    private static double value(StreamBacklog backlog, int shard, ToDoubleFunction<ShardBacklog> figure) {
        return backlog.current().shard(shard).map(figure::applyAsDouble).orElse(Double.NaN);
    }
}
