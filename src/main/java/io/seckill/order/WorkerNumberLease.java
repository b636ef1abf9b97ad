package io.seckill.order;

import io.seckill.redis.ConsumerNameLease;
import io.seckill.redis.LeaseRenewals;
import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import io.seckill.refusal.Reason;
import io.seckill.refusal.Refusal;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Keeps this instance's Snowflake worker number (0..1023, {@link OrderIdGenerator}) to itself while it runs, the
 * way {@link ConsumerNameLease} keeps its consumer name: at start it leases a free number
 * ({@code seckill:order-id:worker:<n>}, SET NX PX with a token of its own), renews the lease every third of the ttl
 * ({@code lua/renewLease-1.lua}) and gives it up on stop ({@code lua/releaseLease-1.lua}). However many instances
 * started before, or crashed without giving theirs up, two live instances never hold one number: a number comes
 * back only once its holder stopped, or stopped renewing for a whole ttl.
 *
 * <p>A lease whose key vanished while this instance runs (Redis flushed or restarted without its data) is taken
 * again, the same number. If another instance took the number in between, this one leases another free number.
 * No id is issued while the lease may have lapsed (no renewal for a ttl): ids could then collide.
 */
@Component
public class WorkerNumberLease implements SmartLifecycle {

    private static final long RETRY_AFTER_SECONDS = 1;

    static final int WORKERS = 1 << OrderIdGenerator.WORKER_BITS;
    static final String HINT_KEY = "seckill:order-id:workers";
    private static final String KEY_PREFIX = "seckill:order-id:worker:";
    /** How often a start that found every number leased looks again, while crashed instances' leases run down. */
    private static final Duration WATCH = Duration.ofMillis(200);

    private static final Logger log = LoggerFactory.getLogger(WorkerNumberLease.class);

    private final StringRedisTemplate redis;
    private final LuaScript<Long> renewScript;
    private final LuaScript<Long> releaseScript;
    private final Duration ttl;
    private final String token;
    private volatile int worker = -1;
    private volatile long validUntilNanos;
    private final LeaseRenewals renewals = new LeaseRenewals("worker-number-lease");

    public WorkerNumberLease(StringRedisTemplate redis, LuaScripts scripts, OrderIdProperties properties) {
        this.redis = redis;
        this.renewScript = scripts.load("renewLease-1.lua", Long.class);
        this.releaseScript = scripts.load("releaseLease-1.lua", Long.class);
        this.ttl = properties.workerLeaseTtl();
        this.token = ManagementFactory.getRuntimeMXBean().getName() + " " + UUID.randomUUID();
    }

    /**
     * This instance's worker number; fails while the lease may have lapsed. It lapses when Redis could not be
     * reached for a ttl, so the order is answered as any other during a Redis outage: 503 REDIS_UNAVAILABLE, try
     * again (a renewal takes the number again once Redis is back).
     */
    public int worker() {
        if (System.nanoTime() - validUntilNanos > 0) {
            renew();
            if (System.nanoTime() - validUntilNanos > 0) {
                throw new Refusal(Reason.REDIS_UNAVAILABLE, "The lease on order-id worker number " + worker
                        + " could not be renewed in Redis for " + ttl.toMillis() + " ms; no order id is issued until "
                        + "it is. Try again in " + RETRY_AFTER_SECONDS + " s", RETRY_AFTER_SECONDS);
            }
        }
        return worker;
    }

    @Override
    public synchronized void start() {
        worker = take();
        renewals.start(ttl, this::renew);
    }

    @Override
    public synchronized void stop() {
        if (!renewals.stop()) {
            return;
        }
        try {
            releaseScript.run(List.of(key(worker)), token);
            log.info("Order-id worker number {} given up", worker);
        } catch (RuntimeException e) {
            log.warn("Could not give up order-id worker number {} ({}); it lapses within {} ms", worker,
                    e.getMessage(), ttl.toMillis());
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return renewals.running();
    }

    /** With the consumer-name lease: before the web server and Camel start, after they stop. */
    @Override
    public int getPhase() {
        return ConsumerNameLease.PHASE;
    }

    /**
     * SET seckill:order-id:worker:n token NX PX ttl, from a number INCR hands out (so starts spread over the
     * numbers) onwards. When all are leased (crashed instances' leases not yet lapsed), looks again until a ttl
     * has passed, then fails.
     */
    private int take() {
        long deadline = System.nanoTime() + ttl.toNanos() + WATCH.toNanos();
        while (true) {
            long from = Math.floorMod(redis.opsForValue().increment(HINT_KEY), WORKERS);
            for (int i = 0; i < WORKERS; i++) {
                int candidate = (int) ((from + i) % WORKERS);
                long asked = System.nanoTime();
                if (Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(key(candidate), token, ttl))) {
                    validUntilNanos = asked + ttl.toNanos();
                    log.info("Order ids: worker number {} leased ({} ms, renewed every {} ms)", candidate,
                            ttl.toMillis(), ttl.toMillis() / 3);
                    return candidate;
                }
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("All " + WORKERS + " order-id worker numbers are leased by live "
                        + "instances (keys " + KEY_PREFIX + "0.." + (WORKERS - 1) + "): no more instances can run");
            }
            try {
                Thread.sleep(WATCH.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for a free order-id worker number", e);
            }
        }
    }

    private synchronized void renew() {
        try {
            long asked = System.nanoTime();
            long outcome = renewScript.run(List.of(key(worker)), token, Long.toString(ttl.toMillis()));
            if (outcome == 0) {
                int lost = worker;
                log.error("Order-id worker number {} was taken by another instance while this one's lease had "
                        + "lapsed; leasing another", lost);
                worker = take();
                return;
            }
            if (outcome == 2) {
                log.warn("Order-id worker number {}: its lease had vanished; taken again", worker);
            }
            validUntilNanos = asked + ttl.toNanos();
        } catch (RuntimeException e) {
            log.warn("Renewing the lease on order-id worker number {} failed ({}); no ids are issued once it has "
                    + "not been renewed for {} ms", worker, e.getMessage(), ttl.toMillis());
        }
    }

    private static String key(int worker) {
        return KEY_PREFIX + worker;
    }
}
