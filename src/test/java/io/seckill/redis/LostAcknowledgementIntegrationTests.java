package io.seckill.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.config.EmbeddedRedis;
import io.seckill.support.ApiClient;
import io.seckill.support.FaultInjectionTest;
import io.seckill.support.FaultyDatabase;
import io.seckill.support.OrderStreams;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.camel.test.spring.junit5.DisableJmx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.annotation.DirtiesContext;

/**
 * A batch committed while Redis went away: its orders are in the database, its acknowledgement cannot reach Redis.
 * Nothing is lost or written twice: the entries stay pending through the outage, and once Redis is back the sweeper
 * claims them, finds their orders written and only acknowledges them. A context of its own: the test stops the
 * embedded Redis.
 */
@FaultInjectionTest
@DisableJmx(false)
@DirtiesContext
@ExtendWith(OutputCaptureExtension.class)
class LostAcknowledgementIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);

    @Autowired
    ApiClient api;

    @Autowired
    FaultyDatabase database;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    EmbeddedRedis embeddedRedis;

    @Test
    void aBatchCommittedWhileRedisIsDownIsAcknowledgedOnceItIsBackAndWrittenOnce(CapturedOutput output) {
        OrderStreams streams = new OrderStreams(redis);
        JdbcTemplate db = new JdbcTemplate(database.real());
        await().atMost(DEADLINE).until(streams::quiet);
        // The classes of @FaultInjectionTest share this Redis: theirs may have left dead letters.
        long deadLettersBefore = streams.deadLetterCount();
        long voucher = api.createVoucher(1);
        long orderId = ThreadLocalRandom.current().nextLong(1L << 40, 1L << 62);
        // The write takes long enough for Redis to go away while it runs; then it commits.
        Duration writing = Duration.ofSeconds(3);
        database.delayWritesOf(orderId, writing);

        String id = streams.add(OrderStreams.order(orderId, voucher, 1));
        await().atMost(DEADLINE).until(() -> database.writesOfDelayed(orderId) == 1);
        embeddedRedis.close();
        try {
            await().atMost(DEADLINE).until(() -> rowsOf(db, orderId) == 1);
            await().atMost(DEADLINE).until(() -> output.getOut().contains(
                    "1 entries processed but not acknowledged"));
        } finally {
            embeddedRedis.restart();
        }

        // Redis kept the entry pending (append-only file): claimed by the sweeper, found written, acknowledged. The
        // test's own client reconnects too, and fails at once until then.
        await().atMost(DEADLINE).ignoreExceptions().until(() -> !streams.contains(id) && streams.quiet());
        assertThat(rowsOf(db, orderId)).isEqualTo(1);
        assertThat(database.writesOfDelayed(orderId)).as("inserts of the order: the claim found it written")
                .isEqualTo(1);
        assertThat(db.queryForObject("SELECT sold FROM vouchers WHERE id = ?", Integer.class, voucher)).isEqualTo(1);
        assertThat(streams.deadLetterCount()).as("dead letters").isEqualTo(deadLettersBefore);
    }

    private static long rowsOf(JdbcTemplate db, long orderId) {
        return db.queryForObject("SELECT COUNT(*) FROM orders WHERE order_id = ?", Long.class, orderId);
    }
}
