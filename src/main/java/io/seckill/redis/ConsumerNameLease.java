package io.seckill.redis;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Keeps this instance's consumer name to itself while it runs. Two live instances reading as one name would each
 * take the other's pending entries for their own: the dead-letter script's owner check and the re-read of the
 * consumer's own pending entries at start-up rely on a name meaning one instance.
 *
 * <p>Before any route starts, the instance takes the lease {@code seckill:consumers:<group>:<name>} (SET NX PX)
 * with a token of its own; it renews it every third of the ttl ({@code lua/renewLease-1.lua}) and gives it up
 * after the routes have stopped ({@code lua/releaseLease-1.lua}). When the name is leased already at start-up,
 * the instance watches the lease: one that lapses belonged to an instance that crashed, and the name is taken
 * once it has (a restart after a SIGKILL waits up to the ttl); one that is renewed, or taken over by a third
 * instance, belongs to a live instance, and the start-up fails at once, naming the setting to change.
 *
 * <p>A lease that lapsed while this instance ran (Redis unreachable for longer than the ttl, or its key lost) is
 * taken again at the next renewal. If another instance took the name in between, this one stops reading
 * ({@link #held()}), reports liveness BROKEN, so that it is restarted (and then refused its name while the other
 * holds it), and logs an error; it reads again once the name is its own again.
 */
@Component
public class ConsumerNameLease implements SmartLifecycle, BooleanSupplier {

    /**
     * After the Redis connection factory (phase 0) starts, and before it stops. The web server and Camel (phase
     * {@code Integer.MAX_VALUE - 2049}, started once the context is refreshed) start after and stop before: no
     * route reads as this name before the lease is taken or after it is given up.
     */
    public static final int PHASE = 1000;
    /** How often a start-up that waits for a lease looks at it again. */
    private static final Duration WATCH = Duration.ofMillis(200);
    /** Beyond the remaining ttl first seen, before a lease that is neither renewed nor gone counts as held. */
    private static final Duration LAPSE_SLACK = Duration.ofSeconds(1);

    private static final Logger log = LoggerFactory.getLogger(ConsumerNameLease.class);

    private final StringRedisTemplate redis;
    private final LuaScript<Long> renewScript;
    private final LuaScript<Long> releaseScript;
    private final ApplicationEventPublisher events;
    private final String consumerName;
    private final String key;
    private final Duration ttl;
    /** pid@host (what an operator needs to find the holder) and a random part (what makes it this start's). */
    private final String token;
    private final LeaseRenewals renewals = new LeaseRenewals("consumer-name-lease");
    private volatile boolean lost;

    public ConsumerNameLease(StringRedisTemplate redis, LuaScripts scripts, RedisKeys keys, StreamProperties stream,
            ConsumerNameLeaseProperties properties, ApplicationEventPublisher events) {
        this.redis = redis;
        this.renewScript = scripts.load("renewLease-1.lua", Long.class);
        this.releaseScript = scripts.load("releaseLease-1.lua", Long.class);
        this.events = events;
        this.consumerName = stream.consumerName();
        this.key = keys.consumerNameLease(stream.group(), stream.consumerName());
        this.ttl = properties.ttl();
        this.token = ManagementFactory.getRuntimeMXBean().getName() + " " + UUID.randomUUID();
    }

    public String key() {
        return key;
    }

    public String token() {
        return token;
    }

    /**
     * Whether this instance may read as its consumer name now: false before the lease is taken, after it is given
     * up, and while another instance holds it (it was taken while this instance's lease had lapsed). Readers and
     * the sweeper read nothing until it is true again, so two instances never read as one name.
     */
    public boolean held() {
        return renewals.running() && !lost;
    }

    /** {@link #held()}: the order writer's {@code redis-stream:} endpoint asks it before every read ({@code readPermit}). */
    @Override
    public boolean getAsBoolean() {
        return held();
    }

    @Override
    public synchronized void start() {
        take();
        renewals.start(ttl, this::renew);
    }

    @Override
    public synchronized void stop() {
        if (!renewals.stop()) {
            return;
        }
        try {
            if (releaseScript.run(List.of(key), token) == 1) {
                log.info("Consumer name {} given up ({})", consumerName, key);
            } else {
                log.warn("Consumer name {}: the lease {} was no longer this instance's", consumerName, key);
            }
        } catch (RuntimeException e) {
            log.warn("Consumer name {}: could not give up the lease {} ({}); it lapses within {} ms", consumerName,
                    key, e.getMessage(), ttl.toMillis());
        }
    }

    @Override
    public synchronized boolean isRunning() {
        return renewals.running();
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    private void take() {
        String holder = null;
        long holderMillisLeft = 0;
        long deadline = 0;
        while (true) {
            // SET key token NX PX ttl
            if (Boolean.TRUE.equals(redis.opsForValue().setIfAbsent(key, token, ttl))) {
                log.info("Consumer name {} leased ({}): {} ms, renewed every {} ms", consumerName, key,
                        ttl.toMillis(), ttl.toMillis() / 3);
                return;
            }
            // GET, PTTL
            String current = redis.opsForValue().get(key);
            Long millisLeft = redis.getExpire(key, TimeUnit.MILLISECONDS);
            if (current == null || millisLeft == null || millisLeft == -2) {
                continue; // lapsed between the commands: take it
            }
            if (millisLeft < 0) {
                throw new ConsumerNameTakenException(consumerName, current,
                        "its lease " + key + " never expires; delete the key if no instance uses the name");
            }
            if (holder == null) {
                log.warn("Consumer name {} is leased by {} for another {} ms: waiting for the lease to lapse (an "
                        + "instance that crashed) or to be renewed (one that runs)", consumerName, current,
                        millisLeft);
                deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millisLeft) + LAPSE_SLACK.toNanos();
            } else if (!current.equals(holder)) {
                throw new ConsumerNameTakenException(consumerName, current,
                        "it took the name while this instance waited for it");
            } else if (millisLeft > holderMillisLeft) {
                throw new ConsumerNameTakenException(consumerName, current, "it renews its lease " + key);
            } else if (System.nanoTime() > deadline) {
                throw new ConsumerNameTakenException(consumerName, current, "its lease " + key + " did not lapse");
            }
            holder = current;
            holderMillisLeft = millisLeft;
            pause();
        }
    }

    private void renew() {
        try {
            long outcome = renewScript.run(List.of(key), token, Long.toString(ttl.toMillis()));
            if (outcome == 0) {
                if (!lost) {
                    lost = true;
                    log.error("Consumer name {} was taken by {} while this instance's lease had lapsed: two "
                            + "instances must not read as one name. This instance reads nothing and liveness is "
                            + "BROKEN until the name is its own again.", consumerName, redis.opsForValue().get(key));
                    AvailabilityChangeEvent.publish(events, this, LivenessState.BROKEN);
                }
                return;
            }
            if (outcome == 2) {
                log.warn("Consumer name {}: the lease {} had lapsed; taken again", consumerName, key);
            }
            if (lost) {
                lost = false;
                log.info("Consumer name {} is this instance's again; liveness CORRECT", consumerName);
                AvailabilityChangeEvent.publish(events, this, LivenessState.CORRECT);
            }
        } catch (RuntimeException e) {
            log.warn("Consumer name {}: renewing the lease {} failed ({}); it lapses {} ms after the last renewal",
                    consumerName, key, e.getMessage(), ttl.toMillis());
        }
    }

    private static void pause() {
        try {
            Thread.sleep(WATCH.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for the consumer name's lease", e);
        }
    }
}
