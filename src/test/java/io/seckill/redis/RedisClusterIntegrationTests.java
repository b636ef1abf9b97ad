package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.Application;
import io.seckill.deadletter.DeadLetterConsole;
import io.seckill.deadletter.DeadLetters;
import io.seckill.support.ApiClient;
import io.seckill.support.FlashCrowd.Outcome;
import io.seckill.support.FlashCrowd;
import io.seckill.support.Invariants;
import io.seckill.support.RedisClusterTestConfiguration;
import io.seckill.support.TestSupport;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.camel.CamelContext;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.stream.Consumer;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.connection.stream.ReadOffset;
import org.springframework.data.redis.connection.stream.RecordId;
import org.springframework.data.redis.connection.stream.StreamOffset;
import org.springframework.data.redis.connection.stream.StreamReadOptions;
import org.springframework.data.redis.connection.stream.StreamRecords;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * The service on a three-master Redis Cluster with four shard streams: each voucher's keys, its shard's streams and
 * the rate-limit buckets of its order requests share one hash tag, so every script runs on the node that owns the
 * tag, and the writer reads every shard wherever it lives. The per-buyer limit is on (a burst no crowd here reaches).
 */
@CamelSpringBootTest
@SpringBootTest(classes = Application.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"seckill.redis.embedded=false", "seckill.stream.shards=" + RedisClusterIntegrationTests.SHARDS,
            "seckill.rate-limit.per-buyer.rate=0.25",
            "seckill.rate-limit.per-buyer.burst=" + RedisClusterIntegrationTests.BUYER_BURST})
@ActiveProfiles("test")
@Import({TestSupport.class, RedisClusterTestConfiguration.class})
@DirtiesContext
class RedisClusterIntegrationTests {

    static final int SHARDS = 4;
    static final int BUYER_BURST = 5;
    private static final Duration DRAINED = Duration.ofSeconds(60);

    @Autowired
    ApiClient api;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    RedisConnectionFactory connectionFactory;

    @Autowired
    RedisKeys keys;

    @Autowired
    DeadLetters deadLetters;

    @Autowired
    CamelContext camel;

    @Autowired
    DeadLetterConsole console;

    @Test
    void theShardStreamsLiveOnSeveralNodes() {
        assertThat(keys.orderStreams()).hasSize(SHARDS);
        try (RedisClusterConnection cluster = connectionFactory.getClusterConnection()) {
            // CLUSTER NODES / CLUSTER KEYSLOT: which master owns each shard's tag
            Set<RedisClusterNode> owners = keys.orderStreams().stream()
                    .map(stream -> cluster.clusterGetNodeForKey(stream.getBytes(StandardCharsets.UTF_8)))
                    .collect(Collectors.toSet());
            assertThat(cluster.clusterGetNodes()).filteredOn(RedisClusterNode::isMaster).hasSize(3);
            assertThat(owners).hasSizeGreaterThan(1);
        }
    }

    @Test
    void aFlashCrowdOverVouchersOnEveryShardKeepsTheContract() throws Exception {
        int stock = 40;
        List<Long> vouchers = new ArrayList<>();
        for (int i = 0; i < SHARDS; i++) {
            vouchers.add(api.createVoucher(stock));
        }
        assertThat(vouchers.stream().map(keys::ordersOf).distinct()).hasSize(SHARDS);

        // 60 buyers for each 40 units, 20 of them twice: every voucher sells out, nobody gets two.
        List<Outcome> outcomes = FlashCrowd.send(FlashCrowd.orders(vouchers, 60, 20), 8, api);

        assertThat(outcomes).allSatisfy(outcome -> assertThat(outcome.status()).isIn(202, 409));
        for (long voucher : vouchers) {
            List<Outcome> accepted = outcomes.stream()
                    .filter(o -> o.order().voucherId() == voucher && o.accepted()).toList();
            assertThat(accepted).as("accepted for voucher %d", voucher).hasSize(stock);
            assertThat(accepted.stream().map(o -> o.order().userId()).distinct()).hasSize(stock);
        }
        assertThat(outcomes.stream().filter(o -> !o.accepted()).map(Outcome::code).distinct())
                .containsOnly("SOLD_OUT", "ALREADY_ORDERED");

        awaitEveryShardDrained();
        Invariants invariants = new Invariants(redis, jdbc, keys);
        for (long voucher : vouchers) {
            Invariants.Ledger ledger = invariants.assertHold(voucher, stock);
            assertThat(ledger.rows()).isEqualTo(stock);
            assertThat(ledger.remaining()).isZero();
        }
    }

    @Test
    void aBuyerOverTheLimitIsRefusedOnEveryShardsNode() {
        long buyer = 9_001;
        Set<Integer> shards = new HashSet<>();
        for (int i = 0; i < SHARDS; i++) {
            long voucher = api.createVoucher(10);
            shards.add(keys.shardOf(voucher));
            // The admission takes the buyer's token on the voucher's node, in its own step: one order, then
            // ALREADY_ORDERED while the burst lasts (a slow machine may see a token come back: one more), then 429.
            List<Integer> statuses = new ArrayList<>();
            ApiClient.Answer answer;
            do {
                answer = api.order(voucher, buyer);
                statuses.add(answer.status());
            } while (answer.status() != 429 && statuses.size() < 3 * BUYER_BURST);

            assertThat(statuses).as("shard %d", keys.shardOf(voucher)).startsWith(202).endsWith(429)
                    .hasSizeGreaterThan(BUYER_BURST);
            assertThat(statuses.subList(1, statuses.size() - 1)).containsOnly(409);
            assertThat(answer.code()).isEqualTo("RATE_LIMITED");
            // GET the bucket: on the voucher's shard, beside its stock
            assertThat(redis.opsForValue().get(keys.rateLimit(voucher, "buyer", Long.toString(buyer)))).isNotNull();
        }
        assertThat(shards).as("consecutive voucher ids, one per shard").hasSize(SHARDS);
    }

    @Test
    void entriesAVanishedConsumerHeldAreClaimedOnTheirNode() throws Exception {
        long voucher = api.createVoucher(5);
        String stream = keys.ordersOf(voucher);

        camel.getRouteController().stopRoute("order-writer");
        String orderId;
        try {
            orderId = api.order(voucher, 7).json().get("orderId").asText();
            // XREADGROUP as another instance that then disappears without acknowledging
            List<MapRecord<String, Object, Object>> taken = redis.opsForStream().read(
                    Consumer.from("order-writers", "vanished-instance"), StreamReadOptions.empty().count(10),
                    StreamOffset.create(stream, ReadOffset.lastConsumed()));
            assertThat(taken).hasSize(1);
            assertThat(redis.opsForStream().pending(stream, "order-writers").getTotalPendingMessages()).isEqualTo(1);
        } finally {
            camel.getRouteController().startRoute("order-writer");
        }

        // XAUTOCLAIM by the pending sweeper, through Lettuce's cluster connection, once the entry is idle
        await().atMost(DRAINED).until(() -> api.getOrder(orderId, 7).status() == 200);
        awaitEveryShardDrained();
        new Invariants(redis, jdbc, keys).assertHold(voucher, 5);
    }

    @Test
    void deadLettersMoveAndReplayWithinTheirShard() {
        String stream = keys.orderStreams().get(SHARDS - 1);
        // XADD an entry that can never be an order (no userId): written one by one, it is dead-lettered
        redis.opsForStream().add(stream, Map.of("orderId", "123", "voucherId", Long.toString(SHARDS - 1),
                "acceptedAt", Long.toString(System.currentTimeMillis())));
        await().atMost(DRAINED).until(() -> deadLetters.count() == 1);
        awaitEveryShardDrained();
        String first = deadLetters.list(10).get(0).id();
        assertThat(redis.opsForStream().size(keys.deadLettersOf(stream))).isEqualTo(1);

        // replayDeadLetter-2 puts it back on its stream; it fails again and comes back as a new dead letter
        assertThat(deadLetters.replay(first)).isPresent();
        await().atMost(DRAINED).until(() -> deadLetters.count() == 1 && !deadLetters.list(1).get(0).id().equals(first));
        assertThat(deadLetters.discard(deadLetters.list(1).get(0).id())).isTrue();
        assertThat(deadLetters.count()).isZero();
    }

    @Test
    void theConsoleNamesEachDeadLettersShardSoEqualStreamIdsStayApart() {
        // XADD with one explicit id on two shards' dead-letter streams: stream ids are only unique per stream
        String sameId = "1700000000000-0";
        long ofShard1 = 1_000_001;
        long ofShard2 = 1_000_002;
        // Vouchers the database knows, one on each shard (ids are consecutive, a voucher lives on id mod shards)
        Map<Integer, Long> voucherOfShard = new HashMap<>();
        for (int i = 0; i < SHARDS; i++) {
            long voucher = api.createVoucher(1);
            voucherOfShard.put(keys.shardOf(voucher), voucher);
        }
        for (int shard : List.of(1, 2)) {
            String dead = keys.deadLettersOf(keys.orderStreams().get(shard));
            redis.opsForStream().add(StreamRecords
                    .string(Map.of("orderId", Long.toString(shard == 1 ? ofShard1 : ofShard2),
                            "voucherId", Long.toString(voucherOfShard.get(shard)), "userId", "7",
                            "acceptedAt", Long.toString(System.currentTimeMillis()), "reason", "staged",
                            "deliveries", "1", "failedAt", "1"))
                    .withStreamKey(dead).withId(RecordId.of(sameId)));
        }

        // The console lists each with its shard: s1:<id> and s2:<id>
        assertThat(console.getCount()).isEqualTo(2);
        List<String> ids = deadLetters.list(10).stream().map(DeadLetters.DeadLetter::id).toList();
        assertThat(ids).containsExactly("s1:" + sameId, "s2:" + sameId);

        // replayDeadLetter-2 on shard 2 only: its order is written, shard 1's dead letter stays
        assertThat(console.replay("s2:" + sameId)).isTrue();
        await().atMost(DRAINED).until(() -> jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE order_id = ?",
                Long.class, ofShard2) == 1);
        assertThat(deadLetters.list(10)).extracting(DeadLetters.DeadLetter::id).containsExactly("s1:" + sameId);
        assertThat(deadLetters.list(10).get(0).orderId()).isEqualTo(Long.toString(ofShard1));
        assertThat(console.replay("s2:" + sameId)).as("gone").isFalse();
        assertThat(console.replay(sameId)).as("a bare stream id names no shard").isFalse();
        assertThat(console.replay("s9:" + sameId)).as("no such shard").isFalse();

        // XDEL on shard 1 only
        assertThat(console.discard("s1:" + sameId)).isTrue();
        assertThat(console.getCount()).isZero();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE order_id = ?", Long.class, ofShard1))
                .isZero();
        awaitEveryShardDrained();
    }

    /** XLEN and XPENDING of every shard stream: all written and acknowledged (the writer deletes what it acks). */
    private void awaitEveryShardDrained() {
        await().atMost(DRAINED).untilAsserted(() -> {
            for (String stream : keys.orderStreams()) {
                assertThat(redis.opsForStream().size(stream)).as("XLEN %s", stream).isZero();
                assertThat(redis.opsForStream().pending(stream, "order-writers").getTotalPendingMessages())
                        .as("XPENDING %s", stream).isZero();
            }
        });
    }
}
