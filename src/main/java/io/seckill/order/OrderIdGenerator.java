package io.seckill.order;

import java.time.Clock;
import java.time.Instant;
import java.util.function.IntSupplier;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * 64-bit order ids, unique across instances and restarts and ordered by time (the Snowflake layout):
 * 41 bits of milliseconds since 2026-01-01, 10 bits of worker, 12 bits of sequence (4,096 ids per ms).
 * The worker number is leased in Redis while the instance runs ({@link WorkerNumberLease}), so two live
 * instances never share one, whatever number of starts, crashes or lost keys came before.
 */
@Component
public class OrderIdGenerator {

    static final long EPOCH_MILLIS = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    static final int WORKER_BITS = 10;
    private static final int SEQUENCE_BITS = 12;
    private static final long MAX_SEQUENCE = (1L << SEQUENCE_BITS) - 1;

    private final Clock clock;
    private final IntSupplier worker;
    private long lastMillis = -1;
    private long sequence;

    @Autowired
    public OrderIdGenerator(WorkerNumberLease lease) {
        this(Clock.systemUTC(), lease::worker);
    }

    OrderIdGenerator(Clock clock, int worker) {
        this(clock, () -> worker);
    }

    private OrderIdGenerator(Clock clock, IntSupplier worker) {
        this.clock = clock;
        this.worker = worker;
    }

    public synchronized long next() {
        long now = clock.millis();
        if (now < lastMillis) {
            // The clock stepped back (NTP): keep counting in the last millisecond we used rather than repeat ids.
            now = lastMillis;
        }
        if (now == lastMillis) {
            sequence = (sequence + 1) & MAX_SEQUENCE;
            if (sequence == 0) {
                now = lastMillis + 1;
            }
        } else {
            sequence = 0;
        }
        lastMillis = now;
        return ((now - EPOCH_MILLIS) << (WORKER_BITS + SEQUENCE_BITS)) | ((long) worker.getAsInt() << SEQUENCE_BITS)
                | sequence;
    }
}
