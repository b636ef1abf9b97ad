package io.seckill.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.Status;

class OrderBacklogHealthIndicatorTests {

    private static final HealthProperties LIMITS = new HealthProperties(100, Duration.ofSeconds(60));
    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");

    @Test
    void upUpToTheMaximumBacklogAcrossShards() {
        Health health = judge(shard(0, 60, 0, Duration.ZERO), shard(1, 40, 0, Duration.ZERO));

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("backlog", 100L);
    }

    @Test
    void downAboveTheMaximumBacklogAcrossShards() {
        Health health = judge(shard(0, 60, 0, Duration.ZERO), shard(1, 41, 0, Duration.ZERO));

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsEntry("backlog", 101L);
    }

    @Test
    void downWhenTheOldestPendingEntryOfAnyShardIsOlderThanAllowed() {
        assertThat(judge(shard(0, 1, 1, Duration.ofSeconds(60)), shard(1, 1, 1, Duration.ofSeconds(1)))
                .getStatus()).isEqualTo(Status.UP);
        assertThat(judge(shard(0, 1, 1, Duration.ofSeconds(1)), shard(1, 1, 1, Duration.ofMillis(60_001)))
                .getStatus()).isEqualTo(Status.DOWN);
    }

    @Test
    void deadLettersAloneDoNotMakeItDown() {
        Health health = judge(new ShardBacklog(0, 0, 0, Duration.ZERO, 1_000_000));

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("deadLetters", 1_000_000L);
    }

    @Test
    void downWithTheReasonWhenTheStreamsCannotBeRead() {
        Health.Builder builder = Health.unknown();
        OrderBacklogHealthIndicator.judge(Backlog.failed(NOW, "Connection refused"), LIMITS, builder);

        Health health = builder.build();
        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat(health.getDetails()).containsEntry("error", "Connection refused");
    }

    private static Health judge(ShardBacklog... shards) {
        Health.Builder builder = Health.unknown();
        OrderBacklogHealthIndicator.judge(new Backlog(NOW, List.of(shards), null), LIMITS, builder);
        return builder.build();
    }

    private static ShardBacklog shard(int shard, long length, long pending, Duration oldestPendingAge) {
        return new ShardBacklog(shard, length, pending, oldestPendingAge, 0);
    }
}
