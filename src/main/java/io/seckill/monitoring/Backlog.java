package io.seckill.monitoring;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * The order streams at one moment: every shard's {@link ShardBacklog}, or why Redis could not be read.
 *
 * @param readAt when Redis was asked
 * @param shards one per shard, in shard order; empty when the read failed
 * @param failure why the read failed, null when it did not
 */
public record Backlog(Instant readAt, List<ShardBacklog> shards, String failure) {

    public Backlog {
        shards = List.copyOf(shards);
    }

    static Backlog failed(Instant readAt, String failure) {
        return new Backlog(readAt, List.of(), failure);
    }

    public boolean isRead() {
        return failure == null;
    }

    public Optional<ShardBacklog> shard(int shard) {
        return shard < shards.size() ? Optional.of(shards.get(shard)) : Optional.empty();
    }

    /** Orders accepted and not yet written, across every shard. */
    public long waiting() {
        return shards.stream().mapToLong(ShardBacklog::length).sum();
    }

    public long pending() {
        return shards.stream().mapToLong(ShardBacklog::pending).sum();
    }

    public long deadLetters() {
        return shards.stream().mapToLong(ShardBacklog::deadLetters).sum();
    }

    public Duration oldestPendingAge() {
        return shards.stream().map(ShardBacklog::oldestPendingAge).max(Duration::compareTo).orElse(Duration.ZERO);
    }
}
