package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.InProcessService;
import io.seckill.support.ReplicatedRedis;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.StandaloneRedis;
import io.seckill.support.Stores;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code seckill.redis.replica-acks=1} on a master with one replica (real redis-server processes): a 202 only once
 * the replica holds the order. With the replica frozen (SIGSTOP, as a stalled machine), the buyer hears 503 within
 * the ack timeout instead of a 202 a failover could lose; the order stands, and the buyer's retry says so. The
 * orders sent while a WAIT is out share the next one (io.seckill.redis.ReplicationWaits), and a connection that
 * breaks under its WAIT neither hangs the orders behind it nor turns them into 202s. A buyer whose script ran before
 * its WAIT broke or was refused hears that the order was taken; a Redis that refuses WAIT outright stops the start.
 */
@SeckillIntegrationTest
@DirtiesContext
class ReplicaAcknowledgementIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final int BUYERS = 20;
    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(1);
    private static final Pattern TAKEN =
            Pattern.compile("^Order (\\d+) was taken, but Redis's replicas did not confirm");
    private static final ReplicatedRedis REDIS = ReplicatedRedis.start(
            Path.of("target", "replica-acks", UUID.randomUUID().toString()));
    private static final StandaloneRedis MASTER = REDIS.master();
    private static final StandaloneRedis REPLICA = REDIS.replica();

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @DynamicPropertySource
    static void masterWithAReplica(DynamicPropertyRegistry registry) {
        REDIS.serviceProperties(registry, ACK_TIMEOUT);
    }

    @AfterAll
    static void stopRedis() throws IOException {
        REDIS.close();
    }

    @Test
    void aFrozenReplicaTurns202Into503AndTheOrderStandsForTheBuyersRetry() throws Exception {
        await().atMost(DEADLINE).until(MASTER::replicaOnline);
        long voucher = api.createVoucher(10);
        String first = api.orderAccepted(voucher, 1).get(0);

        Answer unconfirmed;
        try (StandaloneRedis.Frozen frozen = REPLICA.freeze()) {
            long started = System.nanoTime();
            unconfirmed = api.order(voucher, 2);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("answered after the ack timeout")
                    .isGreaterThanOrEqualTo(ACK_TIMEOUT).isLessThan(DEADLINE);
        }
        assertThat(unconfirmed.status()).as(unconfirmed.body()).isEqualTo(503);
        assertThat(unconfirmed.code()).isEqualTo("REDIS_UNAVAILABLE");
        assertThat(unconfirmed.header("Retry-After")).isEqualTo("1");

        // The order was taken all the same: the buyer's retry hears so, and it is written.
        assertThat(api.order(voucher, 2).code()).isEqualTo("ALREADY_ORDERED");
        String third = api.orderAccepted(voucher, 3).get(0);
        await().atMost(DEADLINE).until(() -> stores.orderRows(voucher) == 3);
        assertThat(stores.rowsPerOrderId(voucher)).containsKeys(first, third).hasSize(3);
        assertThat(stores.distinctBuyers(voucher)).isEqualTo(3);
    }

    @Test
    void ordersSentWhileAWaitIsOutShareTheNextOne() throws Exception {
        await().atMost(DEADLINE).until(MASTER::replicaOnline);
        long voucher = api.createVoucher(BUYERS);
        long waitsBefore = MASTER.calls("WAIT");
        List<Answer> answers;
        try (StandaloneRedis.Frozen frozen = REPLICA.freeze()) {
            answers = concurrently(BUYERS, buyer -> api.order(voucher, 1_000 + buyer));
        }
        // Each WAIT waited its full timeout for the frozen replica: one per order was 20 s of answers in a row.
        assertThat(answers).extracting(Answer::status).containsOnly(503);
        long waits = MASTER.calls("WAIT") - waitsBefore;
        assertThat(waits).as("WAITs for %d orders", BUYERS).isBetween(1L, BUYERS / 4L);
        for (int buyer = 0; buyer < BUYERS; buyer++) {
            assertThat(api.order(voucher, 1_000 + buyer).code()).isEqualTo("ALREADY_ORDERED");
        }
        await().atMost(DEADLINE).until(() -> stores.orderRows(voucher) == BUYERS);
    }

    @Test
    void aConnectionBrokenUnderItsWaitAfterTheScriptRanTellsTheBuyerTheOrderWasTaken() throws Exception {
        await().atMost(DEADLINE).until(MASTER::replicaOnline);
        long voucher = api.createVoucher(10);
        // Redis knows the script now: EVALSHA runs at once. Unknown, its EVAL would wait behind the blocked WAIT.
        String first = api.orderAccepted(voucher, 6).get(0);
        Answer unconfirmed;
        ExecutorService buyer = Executors.newSingleThreadExecutor();
        try (StandaloneRedis.Frozen frozen = REPLICA.freeze()) {
            Future<Answer> answer = buyer.submit(() -> api.order(voucher, 7));
            // The connection's last command is the order's WAIT, so the script before it has run and taken the
            // unit; then the connection breaks under the WAIT.
            String waiting = await().atMost(DEADLINE).pollInterval(Duration.ofMillis(10))
                    .until(() -> MASTER.clientAddress(" cmd=wait"), address -> address != null);
            MASTER.killClient(waiting);
            unconfirmed = answer.get(DEADLINE.toSeconds(), TimeUnit.SECONDS);
        } finally {
            buyer.shutdownNow();
        }
        String taken = takenNotConfirmed(unconfirmed);
        assertThat(api.order(voucher, 7).code()).isEqualTo("ALREADY_ORDERED");
        await().atMost(DEADLINE).until(() -> stores.orderRows(voucher) == 2);
        assertThat(stores.rowsPerOrderId(voucher)).containsOnlyKeys(first, taken);
    }

    @Test
    void aWaitRefusedAfterTheScriptRanTellsTheBuyerTheOrderWasTaken() throws Exception {
        await().atMost(DEADLINE).until(MASTER::replicaOnline);
        long voucher = api.createVoucher(10);
        Answer unconfirmed;
        // The script runs and takes the unit; the WAIT right behind it is refused (NOPERM).
        try (StandaloneRedis.Denied denied = MASTER.deny("wait")) {
            unconfirmed = api.order(voucher, 8);
        }
        String taken = takenNotConfirmed(unconfirmed);
        assertThat(api.order(voucher, 8).code()).isEqualTo("ALREADY_ORDERED");
        await().atMost(DEADLINE).until(() -> stores.orderRows(voucher) == 1);
        assertThat(stores.rowsPerOrderId(voucher)).containsOnlyKeys(taken);
    }

    @Test
    void aRedisThatRefusesWaitStopsTheStart() {
        Map<String, Object> properties = new LinkedHashMap<>(MASTER.serviceProperties());
        properties.put("seckill.redis.replica-acks", "1");
        properties.put("seckill.stream.consumer-name", "refused-wait");
        properties.put("camel.main.jmx-enabled", "false");
        try (StandaloneRedis.Denied denied = MASTER.deny("wait")) {
            assertThatThrownBy(() -> InProcessService.start(new String[] {"test"}, properties).close())
                    .hasStackTraceContaining("seckill.redis.replica-acks needs Redis's WAIT, which Redis refuses")
                    .hasStackTraceContaining("NOPERM");
        }
    }

    /**
     * The answer of an order the script took and the replicas did not confirm: 503, and not "nothing was done" nor
     * "did not answer", since the script's answer came. Returns the order's id, as the detail names it.
     */
    private static String takenNotConfirmed(Answer answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(503);
        assertThat(answer.code()).isEqualTo("REDIS_UNAVAILABLE");
        String detail = answer.json().get("detail").asText();
        Matcher taken = TAKEN.matcher(detail);
        assertThat(taken.find()).as(detail).isTrue();
        return taken.group(1);
    }

    private static <T> List<T> concurrently(int count, IntFunction<T> task) throws Exception {
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(count);
        try {
            List<Future<T>> futures = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                futures.add(threads.submit(() -> {
                    start.await();
                    return task.apply(index);
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get(DEADLINE.toSeconds(), TimeUnit.SECONDS));
            }
            return results;
        } finally {
            threads.shutdownNow();
        }
    }
}
