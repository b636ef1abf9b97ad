package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.api.StatefulConnection;
import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.ReplicatedRedis;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.StandaloneRedis;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * {@code seckill.redis.replica-acks=1} when the master dies while a WAIT is out (the replica frozen, so the WAIT
 * waits): a buyer who orders then hears 503 at once, as without acknowledgements, not once the WAIT gives up. The
 * order's script is refused by a client that has no connection, and the WAIT it would have shared is held by the
 * client until it reconnects or the command times out; in a Sentinel failover that held each new buyer for the
 * seconds until the promotion.
 */
@SeckillIntegrationTest
@DirtiesContext
class ReplicaAcknowledgementOutageIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    /** Far above "at once": the held WAIT would answer after it, or after the client's command timeout (5 s). */
    private static final Duration ACK_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration AT_ONCE = Duration.ofSeconds(2);
    private static final ReplicatedRedis REDIS = ReplicatedRedis.start(
            Path.of("target", "replica-acks-outage", UUID.randomUUID().toString()));
    private static final StandaloneRedis MASTER = REDIS.master();
    private static final StandaloneRedis REPLICA = REDIS.replica();

    @Autowired
    ApiClient api;
    @Autowired
    StatefulConnection<String, String> scriptConnection;

    @DynamicPropertySource
    static void masterWithAReplica(DynamicPropertyRegistry registry) {
        REDIS.serviceProperties(registry, ACK_TIMEOUT);
    }

    @AfterAll
    static void stopRedis() throws IOException {
        REDIS.close();
    }

    @Test
    void aBuyerWhoOrdersWhileTheMasterIsGoneHears503AtOnceThoughAWaitIsOut() throws Exception {
        await().atMost(DEADLINE).until(MASTER::replicaOnline);
        long voucher = api.createVoucher(10);
        ExecutorService first = Executors.newSingleThreadExecutor();
        try (StandaloneRedis.Frozen frozen = REPLICA.freeze()) {
            Future<Answer> waiting = first.submit(() -> api.order(voucher, 1));
            // WAIT (the first order's, for the frozen replica)
            await().atMost(DEADLINE).pollInterval(Duration.ofMillis(10))
                    .until(() -> MASTER.clientAddress(" cmd=wait") != null);
            MASTER.kill();
            // A script written before the client saw its connection break is Lettuce's at-least-once case (sent
            // again after the reconnection, or timed out): not this one, which is about the buyers after it.
            await().atMost(DEADLINE).pollInterval(Duration.ofMillis(10)).until(() -> !scriptConnection.isOpen());

            long sent = System.nanoTime();
            Answer gone = api.order(voucher, 2);
            Duration took = Duration.ofNanos(System.nanoTime() - sent);

            assertThat(gone.status()).as(gone.body()).isEqualTo(503);
            assertThat(gone.code()).isEqualTo("REDIS_UNAVAILABLE");
            assertThat(gone.header("Retry-After")).isEqualTo("1");
            assertThat(took).as("answered at once").isLessThan(AT_ONCE);
            // The first order's buyer is answered too, once the client gives its WAIT up: never a 202.
            assertThat(waiting.get(DEADLINE.toSeconds(), TimeUnit.SECONDS).status()).isEqualTo(503);
        } finally {
            first.shutdownNow();
        }
    }
}
