package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.redis.LuaScripts;
import io.seckill.support.SeckillIntegrationTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@link WorkerNumberLease} on the service's Redis: the service's own lease stays up while other would-be
 * instances start (the lease component alone, as each instance's start does), stop and crash around it.
 */
@SeckillIntegrationTest
class WorkerNumberLeaseIntegrationTests {

    private static final Duration TTL = Duration.ofSeconds(2);

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    LuaScripts scripts;

    @Autowired
    WorkerNumberLease service;

    @Autowired
    OrderIdGenerator serviceIds;

    final List<WorkerNumberLease> started = new ArrayList<>();

    @AfterEach
    void stopLeases() {
        started.forEach(WorkerNumberLease::stop);
    }

    @Test
    void moreThan1024StartsNeverShareTheWorkerNumberOfAnInstanceThatStaysUp() {
        int own = service.worker();
        assertThat((serviceIds.next() >> 12) & 1023).isEqualTo(own);

        // 1,100 starts and stops elsewhere (rolling deploys): SET NX PX, then releaseLease-1
        for (int start = 1; start <= 1100; start++) {
            WorkerNumberLease other = lease();
            other.start();
            assertThat(other.worker()).as("start %d", start).isNotEqualTo(own);
            other.stop();
        }
        assertThat(service.worker()).isEqualTo(own);
        assertThat(redis.opsForValue().get("seckill:order-id:worker:" + own)).isNotNull();
    }

    @Test
    void whileEveryOtherNumberIsHeldAStartWaitsForACrashedOnesLeaseAndNeverTakesALiveOne() {
        int own = service.worker();
        // 1,023 instances running at once: each holds a number of its own
        Set<Integer> numbers = new HashSet<>(Set.of(own));
        for (int start = 1; start < WorkerNumberLease.WORKERS; start++) {
            assertThat(numbers.add(start(lease()).worker())).as("start %d", start).isTrue();
        }
        // The 1,025th finds none free; it waits a ttl for one to lapse, then fails rather than share one
        assertThatThrownBy(() -> lease().start()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("All 1024 order-id worker numbers are leased");

        // One crashes (its renewals stop, its key stays until the ttl runs out): a new start gets its number
        WorkerNumberLease crashed = started.remove(started.size() - 1);
        int crashedNumber = crashed.worker();
        crashed.stop();
        redis.opsForValue().set("seckill:order-id:worker:" + crashedNumber, "4646@crashed", TTL);
        WorkerNumberLease restarted = start(lease());
        assertThat(restarted.worker()).isEqualTo(crashedNumber);
    }

    @Test
    void aLeaseWhoseKeyVanishedIsTakenAgainWithTheSameNumber() throws Exception {
        WorkerNumberLease lease = start(lease());
        int number = lease.worker();

        // DEL (Redis flushed or restarted empty); renewLease-1 takes it again (SET PX), answers 2
        redis.delete("seckill:order-id:worker:" + number);
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30))
                .until(() -> redis.hasKey("seckill:order-id:worker:" + number));
        assertThat(lease.worker()).isEqualTo(number);
    }

    @Test
    void aNumberTakenOverWhileTheLeaseHadLapsedIsGivenUpForAFreeOne() {
        WorkerNumberLease lease = start(lease());
        int number = lease.worker();

        // SET: another instance holds the number now; renewLease-1 answers 0, and this one leases another
        redis.opsForValue().set("seckill:order-id:worker:" + number, "4747@elsewhere", Duration.ofMinutes(1));
        org.awaitility.Awaitility.await().atMost(Duration.ofSeconds(30)).until(() -> lease.worker() != number);
        assertThat(redis.opsForValue().get("seckill:order-id:worker:" + number)).isEqualTo("4747@elsewhere");
        assertThat(lease.worker()).isNotEqualTo(service.worker());
        redis.delete("seckill:order-id:worker:" + number);
    }

    private WorkerNumberLease lease() {
        return new WorkerNumberLease(redis, scripts, new OrderIdProperties(TTL));
    }

    private WorkerNumberLease start(WorkerNumberLease lease) {
        lease.start();
        started.add(lease);
        return lease;
    }
}
