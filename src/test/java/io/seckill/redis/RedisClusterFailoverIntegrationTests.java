package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.Application;
import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.EmbeddedRedisCluster;
import io.seckill.support.Invariants;
import io.seckill.support.OrderingCrowd;
import io.seckill.support.OrderingCrowd.Probe;
import io.seckill.support.OrderingCrowd.Reply;
import io.seckill.support.RedisClusterTestConfiguration;
import io.seckill.support.Stores;
import io.seckill.support.TestSupport;
import io.seckill.support.VoucherStreams;
import java.sql.Timestamp;
import java.time.Duration;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * The service on a Redis Cluster of three masters with a replica each (real processes, cluster-node-timeout 2 s)
 * while a crowd orders, and the process of the master holding the voucher's keys is killed: the cluster promotes
 * its replica, the service follows the new topology by itself (Lettuce's adaptive topology refresh), answering 503
 * meanwhile, and the state check rebuilds what the promoted replica did not know.
 */
@CamelSpringBootTest
@SpringBootTest(classes = Application.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"seckill.redis.embedded=false", "seckill.stream.shards=4",
            "test.redis-cluster.replicas-per-master=1", "seckill.redis.state-check.check-period=1s"})
@ActiveProfiles("test")
@Import({TestSupport.class, RedisClusterTestConfiguration.class})
@DirtiesContext
class RedisClusterFailoverIntegrationTests {

    private static final Logger log = LoggerFactory.getLogger(RedisClusterFailoverIntegrationTests.class);
    private static final Duration DEADLINE = Duration.ofSeconds(20);
    /** Longer than any request may take: Lettuce's command timeout (spring.data.redis.timeout, 5 s) and some. */
    private static final Duration LONGEST_ANSWER = Duration.ofSeconds(10);
    private static final int STOCK = 100_000;
    /** The buyer of an order the database holds and Redis does not know (far above the crowd's buyers). */
    private static final long UNKNOWN_BUYER = 9_000_000_001L;

    @Autowired
    ApiClient api;

    @Autowired
    EmbeddedRedisCluster cluster;

    @Autowired
    Stores stores;

    @Autowired
    VoucherStreams streams;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    RedisKeys keys;

    @Test
    void whenAMastersProcessDiesItsReplicaTakesOverAndTheServiceFollowsAnswering503MeanwhileNever500()
            throws Exception {
        long voucher = api.createVoucher(STOCK);
        // CLUSTER KEYSLOT / CLUSTER NODES: the master serving the voucher's hash tag {sN}, and its replica
        int master = cluster.masterOf(keys.voucher(voucher));
        int replica = cluster.replicaOf(master);
        // On one machine a replica is never far enough behind to miss an order the writer has already written; this
        // row stands for one: a sold unit and a buyer the database holds and neither master nor replica knows. The
        // state check leaves it while the server stays the same, and must rebuild the voucher once it changes.
        writeOrderRedisDoesNotKnow(voucher);

        OrderingCrowd crowd = new OrderingCrowd(api, voucher, 4);
        long killedAt;
        long promotedAt;
        try (crowd) {
            await().atMost(DEADLINE).until(() -> crowd.accepted() >= 100);
            cluster.kill(master);
            killedAt = System.nanoTime();
            // Meanwhile a new buyer is refused at once (the client rejects commands for a node it is not connected
            // to) and readiness is DOWN.
            crowd.awaitOutageHeard(killedAt, DEADLINE);
            // INFO replication of the replica: role:master once the other masters voted for it
            await().atMost(DEADLINE).pollInterval(Duration.ofMillis(50)).until(() -> cluster.isMaster(replica));
            promotedAt = System.nanoTime();
            // Orders are taken again, on the promoted replica, once the client has re-read the topology.
            await().atMost(DEADLINE).pollInterval(Duration.ofMillis(20)).until(() -> crowd.orderStatus() == 202);
            long acceptedAtResumption = crowd.accepted();
            await().atMost(DEADLINE).until(() -> crowd.accepted() >= acceptedAtResumption + 100);
        }
        Map<Long, Reply> replies = crowd.replies();
        long resumedAt = replies.values().stream()
                .filter(reply -> reply.sentNanos() > killedAt && reply.answer() != null && reply.answer().status() == 202)
                .mapToLong(Reply::answeredNanos).min().orElseThrow();
        List<Probe> readiness = crowd.readiness();
        // The crowd's probe every 50 ms, for the log: when readiness went DOWN and came back, as far as it saw.
        List<Probe> probedDown = readiness.stream().filter(probe -> probe.answeredNanos() > killedAt
                && probe.status() != 200).toList();
        long readyAgainAt = probedDown.isEmpty() ? -1 : readiness.stream().filter(probe -> probe.answeredNanos()
                > probedDown.get(probedDown.size() - 1).answeredNanos() && probe.status() == 200)
                .mapToLong(Probe::answeredNanos).min().orElse(-1);
        log.info("Master :{} killed; its replica :{} promoted {} ms later; the first order accepted after the kill "
                + "answered {} ms after it; readiness DOWN {}, UP again {}", master, replica,
                millis(promotedAt - killedAt), millis(resumedAt - killedAt),
                probedDown.isEmpty() ? "(between the crowd's probes)"
                        : millis(probedDown.get(0).answeredNanos() - killedAt) + " ms after it",
                readyAgainAt < 0 ? "after the crowd" : millis(readyAgainAt - killedAt) + " ms after it");

        Map<Long, Answer> answers = crowd.answers();
        Map<String, List<Answer>> byOutcome = crowd.failoverAnswers();
        long longest = replies.values().stream().mapToLong(Reply::millis).max().orElseThrow();
        assertThat(longest).as("the longest answer, ms").isLessThan(LONGEST_ANSWER.toMillis());
        log.info("Answers: {}; the longest took {} ms", byOutcome.entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, outcome -> outcome.getValue().size())), longest);
        await().atMost(DEADLINE).until(() -> api.get("/actuator/health/readiness").status() == 200);

        // The writer drains what the promoted master holds, each order once; the state check saw another server
        // (the replica's master_replid) and rebuilt the voucher from the database and the streams.
        await().atMost(DEADLINE).until(() -> streams.entriesOf(voucher).isEmpty());
        Invariants invariants = new Invariants(redis, jdbc, keys);
        await().atMost(DEADLINE).untilAsserted(() -> invariants.assertHold(voucher, STOCK));
        Invariants.Ledger ledger = invariants.assertHold(voucher, STOCK);
        // SISMEMBER buyers: the buyer only the database knew
        assertThat(redis.opsForSet().isMember(keys.buyers(voucher), Long.toString(UNKNOWN_BUYER))).isTrue();
        assertThat(api.order(voucher, UNKNOWN_BUYER).code()).isEqualTo("ALREADY_ORDERED");
        assertThat(stores.rowsPerOrderId(voucher).values()).as("rows per order id").allMatch(rows -> rows == 1);
        List<Long> buyersWritten = jdbc.queryForList("SELECT user_id FROM orders WHERE voucher_id = ? AND user_id <> ?",
                Long.class, voucher, UNKNOWN_BUYER);
        Map<Long, Answer> toldNotTaken = crowd.toldNotTaken();
        assertThat(buyersWritten.stream().filter(toldNotTaken::containsKey).map(toldNotTaken::get))
                .as("answers of buyers with an order who were told it was not taken").isEmpty();
        // Replication is asynchronous (and replica-acks refused on a cluster): a 202 the replica had not received
        // when its master died is lost with it. Observed, not asserted.
        Set<Long> lost = answers.entrySet().stream().filter(answer -> answer.getValue().status() == 202)
                .map(Map.Entry::getKey).collect(Collectors.toCollection(HashSet::new));
        long accepted = lost.size();
        buyersWritten.forEach(lost::remove);
        log.info("{} orders answered 202, {} ALREADY_ORDERED, {} written, {} dead letters; {} answered 202 without a "
                + "row (lost with the master); {} remaining of {}", accepted,
                byOutcome.getOrDefault("409 ALREADY_ORDERED", List.of()).size(), buyersWritten.size(),
                ledger.deadLetters(), lost.size(), ledger.remaining(), STOCK);
    }

    /** A live order row and its unit in {@code vouchers.sold}, as the order writer leaves them. */
    private void writeOrderRedisDoesNotKnow(long voucher) {
        Instant now = Instant.now();
        jdbc.update("INSERT INTO orders (order_id, voucher_id, user_id, status, created_at, live_buyer_id, pay_before) "
                + "VALUES (?, ?, ?, 'CREATED', ?, ?, ?)", 1L, voucher, UNKNOWN_BUYER, Timestamp.from(now),
                UNKNOWN_BUYER, Timestamp.from(now.plus(Duration.ofMinutes(15))));
        jdbc.update("UPDATE vouchers SET sold = sold + 1 WHERE id = ?", voucher);
    }

    private static long millis(long nanos) {
        return TimeUnit.NANOSECONDS.toMillis(nanos);
    }
}
