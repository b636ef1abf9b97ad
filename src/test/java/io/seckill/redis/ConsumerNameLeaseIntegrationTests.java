package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.OrderStreams;
import io.seckill.support.SeckillIntegrationTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.LivenessState;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@link ConsumerNameLease} and its scripts ({@code lua/renewLease-1.lua}, {@code lua/releaseLease-1.lua}) on the
 * service's Redis: leases of several would-be instances for a consumer name of the test's own, with a short ttl.
 */
@SeckillIntegrationTest
class ConsumerNameLeaseIntegrationTests {

    private static final Duration TTL = Duration.ofSeconds(3);

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    LuaScripts scripts;

    @Autowired
    StreamProperties stream;

    @Autowired
    ConsumerNameLease serviceLease;

    @Autowired
    ApiClient api;

    String name;
    /** Liveness changes each lease published. */
    final List<Object> events = new CopyOnWriteArrayList<>();
    final List<ConsumerNameLease> started = new ArrayList<>();

    @BeforeEach
    void nameOfItsOwn() {
        name = "lease-test-" + UUID.randomUUID();
    }

    @AfterEach
    void stopLeases() {
        started.forEach(ConsumerNameLease::stop);
    }

    @Test
    void aNameLeasedByARunningInstanceIsRefusedAtStartUp() {
        ConsumerNameLease first = start(lease());

        // SET NX PX fails; GET, PTTL until the lease is seen renewed (PEXPIRE every ttl/3)
        assertThatThrownBy(() -> lease().start())
                .isInstanceOf(ConsumerNameTakenException.class)
                .hasMessageContaining("seckill.stream.consumer-name '" + name + "' is in use by another instance")
                .hasMessageContaining(first.token())
                .hasMessageContaining("it renews its lease");
        assertThat(redis.opsForValue().get(first.key())).isEqualTo(first.token());
    }

    @Test
    void aNameIsFreeOnceItsHolderStopped() {
        ConsumerNameLease first = start(lease());
        first.stop();

        // EVALSHA releaseLease-1: DEL of the holder's own lease
        assertThat(redis.hasKey(first.key())).isFalse();
        ConsumerNameLease second = start(lease());
        assertThat(redis.opsForValue().get(second.key())).isEqualTo(second.token());
    }

    @Test
    void aCrashedInstancesLeaseIsWaitedOutAndTheNameTaken() {
        ConsumerNameLease restarted = lease();
        // SET … PX: the lease an instance killed a moment ago left, never to be renewed
        redis.opsForValue().set(restarted.key(), "4242@crashed " + UUID.randomUUID(), Duration.ofSeconds(2));

        start(restarted);

        assertThat(redis.opsForValue().get(restarted.key())).isEqualTo(restarted.token());
        // PTTL: a lease with a ttl of its own, renewed from now on
        assertThat(redis.getExpire(restarted.key())).isPositive();
    }

    @Test
    void aNameTakenOverWhileTheLeaseHadLapsedBreaksLivenessUntilItIsFreeAgain() {
        ConsumerNameLease lease = start(lease());

        // SET: another instance took the name (as if this one's lease had lapsed), renewLease-1 answers 0
        redis.opsForValue().set(lease.key(), "4343@elsewhere " + UUID.randomUUID());
        await().atMost(Duration.ofSeconds(30)).until(() -> events.contains(LivenessState.BROKEN));
        assertThat(redis.opsForValue().get(lease.key())).doesNotContain(lease.token());

        // DEL: the other one is gone; renewLease-1 takes the lapsed lease again (SET PX), answers 2
        redis.delete(lease.key());
        await().atMost(Duration.ofSeconds(30)).until(() -> events.contains(LivenessState.CORRECT));
        assertThat(redis.opsForValue().get(lease.key())).isEqualTo(lease.token());
        assertThat(events).containsExactly(LivenessState.BROKEN, LivenessState.CORRECT);
    }

    @Test
    void theServiceReadsAndSweepsNothingWhileAnotherInstanceHoldsItsName() {
        OrderStreams streams = new OrderStreams(redis);
        await().atMost(Duration.ofSeconds(60)).until(streams::quiet);
        String key = serviceLease.key();
        try {
            // SET: another instance took this service's name (as if its lease had lapsed); renewLease-1 answers 0
            redis.opsForValue().set(key, "4545@elsewhere " + UUID.randomUUID());
            await().atMost(Duration.ofSeconds(30)).until(() -> api.get("/actuator/health/liveness").status() == 503);
            // A read already blocking when the lease was lost (XREADGROUP … BLOCK block-millis) ends meanwhile
            Duration readsInFlight = Duration.ofMillis(stream.blockMillis() * 3);
            await().pollDelay(readsInFlight).atMost(readsInFlight.plusSeconds(1)).until(() -> true);

            // XADD: one order a crashed consumer left pending long ago (its XCLAIM … LASTID moves the group past it),
            // then a new one
            String stale = streams.addPendingFor("crashed", 1, 600_000, OrderStreams.order(nextOrderId(), 9_100_001, 2));
            String fresh = streams.add(OrderStreams.order(nextOrderId(), 9_100_001, 1));
            // Neither is read (XREADGROUP) nor claimed (XAUTOCLAIM) under the name another instance holds
            await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10)).until(() ->
                    streams.holderOf(fresh) == null && "crashed".equals(streams.holderOf(stale))
                            && streams.length() == 2);

            // DEL: the other instance is gone; the lease is this service's again, and it reads and sweeps again
            redis.delete(key);
            await().atMost(Duration.ofSeconds(30)).until(() -> api.get("/actuator/health/liveness").status() == 200);
            await().atMost(Duration.ofSeconds(30)).until(streams::quiet);
        } finally {
            if (!serviceLease.token().equals(redis.opsForValue().get(key))) {
                redis.delete(key);
            }
        }
    }

    @Test
    void stoppingLeavesALeaseAnotherInstanceHoldsAlone() {
        ConsumerNameLease lease = start(lease());
        String other = "4444@elsewhere " + UUID.randomUUID();
        redis.opsForValue().set(lease.key(), other, Duration.ofMinutes(1));

        // EVALSHA releaseLease-1: the token does not match, nothing is deleted
        lease.stop();

        assertThat(redis.opsForValue().get(lease.key())).isEqualTo(other);
        redis.delete(lease.key());
    }

    private static long nextOrderId() {
        return ThreadLocalRandom.current().nextLong(1L << 40, 1L << 62);
    }

    private ConsumerNameLease lease() {
        StreamProperties named = new StreamProperties(stream.shards(), stream.group(), name, stream.batchSize(),
                stream.blockMillis(), stream.readersPerShard());
        return new ConsumerNameLease(redis, scripts, new RedisKeys(named), named,
                new ConsumerNameLeaseProperties(TTL),
                event -> events.add(((AvailabilityChangeEvent<?>) event).getState()));
    }

    private ConsumerNameLease start(ConsumerNameLease lease) {
        lease.start();
        started.add(lease);
        return lease;
    }
}
