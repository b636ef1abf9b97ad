package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.StandaloneRedis;
import io.seckill.support.Stores;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code seckill.redis.replica-acks=1} on a master with one replica (real redis-server processes): a 202 only once
 * the replica holds the order. With the replica frozen (SIGSTOP, as a stalled machine), the buyer hears 503 within
 * the ack timeout instead of a 202 a failover could lose; the order stands, and the buyer's retry says so.
 */
@SeckillIntegrationTest
@DirtiesContext
class ReplicaAcknowledgementIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    private static final Duration ACK_TIMEOUT = Duration.ofMillis(300);
    private static final Path DIR = Path.of("target", "replica-acks", UUID.randomUUID().toString());
    private static final StandaloneRedis MASTER = StandaloneRedis.start(DIR.resolve("master"));
    private static final StandaloneRedis REPLICA = StandaloneRedis.start(DIR.resolve("replica"),
            "replicaof 127.0.0.1 " + MASTER.port());

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @DynamicPropertySource
    static void masterWithAReplica(DynamicPropertyRegistry registry) {
        MASTER.serviceProperties().forEach((key, value) -> registry.add(key, () -> value));
        registry.add("seckill.redis.replica-acks", () -> "1");
        registry.add("seckill.redis.replica-ack-timeout", ACK_TIMEOUT::toString);
    }

    @AfterAll
    static void stopRedis() throws IOException {
        REPLICA.close();
        MASTER.close();
    }

    @Test
    void aFrozenReplicaTurns202Into503AndTheOrderStandsForTheBuyersRetry() throws Exception {
        await().atMost(DEADLINE).until(ReplicaAcknowledgementIntegrationTests::replicaInSync);
        long voucher = api.createVoucher(10);
        String first = api.orderAccepted(voucher, 1).get(0);

        // Asked before: a frozen server answers nothing, INFO included.
        long replica = REPLICA.pid();
        signal("STOP", replica);
        Answer unconfirmed;
        try {
            long started = System.nanoTime();
            unconfirmed = api.order(voucher, 2);
            assertThat(Duration.ofNanos(System.nanoTime() - started)).as("answered after the ack timeout")
                    .isGreaterThanOrEqualTo(ACK_TIMEOUT).isLessThan(DEADLINE);
        } finally {
            signal("CONT", replica);
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

    private static boolean replicaInSync() {
        Properties replication = MASTER.template().execute(
                (RedisCallback<Properties>) connection -> connection.serverCommands().info("replication"));
        return replication != null && replication.getProperty("slave0", "").contains("state=online");
    }

    /** kill -STOP / -CONT: the process stays, as a stalled machine's would. */
    private static void signal(String signal, long pid) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).inheritIO().start();
        assertThat(kill.waitFor()).as("kill -%s %d", signal, pid).isZero();
    }
}
