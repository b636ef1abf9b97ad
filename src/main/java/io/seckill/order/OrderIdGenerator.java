package io.seckill.order;

import java.time.Clock;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.stereotype.Component;

/**
 * 64-bit order ids, unique across instances and restarts and ordered by time (the Snowflake layout):
 * 41 bits of milliseconds since 2026-01-01, 10 bits of worker, 12 bits of sequence (4,096 ids per ms).
 * Each start leases a worker number from Redis (INCR), so two live instances never share one; a worker
 * number comes back only after 1,024 starts, by then its earlier holder's milliseconds are long past.
 */
@Component
public class OrderIdGenerator {

    private static final Logger log = LoggerFactory.getLogger(OrderIdGenerator.class);

    static final long EPOCH_MILLIS = Instant.parse("2026-01-01T00:00:00Z").toEpochMilli();
    static final String WORKER_SEQUENCE_KEY = "seckill:order-id:workers";
    private static final int WORKER_BITS = 10;
    private static final int SEQUENCE_BITS = 12;
    private static final long MAX_SEQUENCE = (1L << SEQUENCE_BITS) - 1;

    private final Clock clock;
    private final long worker;
    private long lastMillis = -1;
    private long sequence;

    @Autowired
    public OrderIdGenerator(StringRedisTemplate redis) {
        this(Clock.systemUTC(), Math.floorMod(redis.opsForValue().increment(WORKER_SEQUENCE_KEY), 1L << WORKER_BITS));
    }

    OrderIdGenerator(Clock clock, long worker) {
        this.clock = clock;
        this.worker = worker;
        log.info("Order ids: worker {}", worker);
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
        return ((now - EPOCH_MILLIS) << (WORKER_BITS + SEQUENCE_BITS)) | (worker << SEQUENCE_BITS) | sequence;
    }
}
