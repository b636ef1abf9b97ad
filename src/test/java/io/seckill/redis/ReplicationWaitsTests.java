package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.seckill.support.StandaloneRedis;
import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ReplicationWaits} on a real master with one replica, through a Lettuce connection of its own: one WAIT out
 * at a time, and no acknowledgement counted across a broken connection (after a failover the new connection's WAIT
 * would speak for the new master's replicas, not for the writes the old one took).
 */
class ReplicationWaitsTests {

    private static final Duration DEADLINE = Duration.ofSeconds(30);
    private static final Path DIR = Path.of("target", "replication-waits", UUID.randomUUID().toString());
    private static StandaloneRedis master;
    private static StandaloneRedis replica;

    private RedisClient client;
    private StatefulRedisConnection<String, String> connection;
    private RedisAsyncCommands<String, String> redis;
    private ReplicationWaits waits;

    @BeforeAll
    static void startRedis() {
        master = StandaloneRedis.start(DIR.resolve("master"));
        replica = StandaloneRedis.start(DIR.resolve("replica"), "replicaof 127.0.0.1 " + master.port());
    }

    @AfterAll
    static void stopRedis() throws Exception {
        replica.close();
        master.close();
    }

    @BeforeEach
    void connect() {
        await().atMost(DEADLINE).until(master::replicaOnline);
        client = RedisClient.create(RedisURI.create("127.0.0.1", master.port()));
        connection = client.connect();
        redis = connection.async();
        waits = new ReplicationWaits(connection, redis, new ReplicaAckProperties(1, Duration.ofSeconds(1)));
    }

    @AfterEach
    void disconnect() {
        waits.close();
        connection.close();
        client.shutdown();
    }

    @Test
    void whileAWaitIsOutTheWritesSentMeanwhileShareTheNextOne() throws Exception {
        long waitsBefore = master.calls("WAIT");
        CompletableFuture<Long> first;
        CompletableFuture<Long> second;
        CompletableFuture<Long> third;
        try (StandaloneRedis.Frozen frozen = replica.freeze()) {
            redis.set("replication-waits:a", "1");
            first = waits.covering();
            redis.set("replication-waits:b", "2");
            second = waits.covering();
            redis.set("replication-waits:c", "3");
            third = waits.covering();
            // The frozen replica acknowledges nothing: the first WAIT answers 0 after its timeout.
            assertThat(first.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isZero();
        }
        assertThat(second).isSameAs(third).isNotSameAs(first);
        assertThat(second.get(DEADLINE.toSeconds(), TimeUnit.SECONDS)).isEqualTo(1);
        assertThat(master.calls("WAIT") - waitsBefore).as("WAITs sent for three writes").isEqualTo(2);
    }

    @Test
    void anAcknowledgementOnANewConnectionDoesNotCountForWritesOfTheOldOne() throws Exception {
        long before = waits.connection();
        redis.clientSetname("replication-waits-test").get();
        redis.set("replication-waits:d", "4").get();
        master.killClient(master.clientAddress(" name=replication-waits-test "));
        // The client reconnects by itself; the WAIT goes out on the new connection.
        long acknowledgements = await().atMost(DEADLINE).ignoreExceptions()
                .until(() -> waits.covering().get(DEADLINE.toSeconds(), TimeUnit.SECONDS), acks -> acks == 1);

        assertThat(waits.acknowledged(acknowledgements, before)).as("across the broken connection").isFalse();
        assertThat(waits.acknowledged(acknowledgements, waits.connection())).as("on the new connection").isTrue();
        assertThat(waits.acknowledged(0, waits.connection())).as("no replica").isFalse();
    }

}
