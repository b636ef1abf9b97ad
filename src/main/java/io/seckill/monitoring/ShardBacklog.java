package io.seckill.monitoring;

import java.time.Duration;

/**
 * One shard's orders not yet in the database, as Redis counts them. A written order's entry is acknowledged and
 * deleted in one step (the {@code redis-stream:} component's {@code ackEntries-1.lua}), so every entry still in the stream is waiting: delivered to a
 * consumer and unacknowledged (pending), or not delivered yet (lag).
 *
 * @param shard the shard number N of {@code seckill:{sN}:orders}
 * @param length entries in the stream (XLEN): every order of this shard not yet written
 * @param pending entries delivered and not acknowledged (XPENDING summary)
 * @param oldestPendingAge how long ago the oldest pending entry was accepted (from its id); zero when none is pending
 * @param deadLetters entries in {@code seckill:{sN}:orders:dead} (XLEN)
 */
public record ShardBacklog(int shard, long length, long pending, Duration oldestPendingAge, long deadLetters) {

    /** Entries the group has not delivered yet; Redis 7's XINFO GROUPS lag, computed so Redis 6.2 serves too. */
    public long lag() {
        return Math.max(0, length - pending);
    }
}
