package io.seckill.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.lua.LuaScript;
import io.seckill.lua.LuaScripts;
import io.seckill.support.SeckillIntegrationTest;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@code lua/takeToken-1.lua} and {@code lua/returnToken-1.lua} on their own against the embedded Redis, each test
 * on a bucket key of its own. The rate is slow (one token an hour) so that no token comes back during a test.
 */
@SeckillIntegrationTest
class TokenBucketScriptsIntegrationTests {

    private static final long MICROS_PER_TOKEN = 3_600_000_000L;
    private static final long BURST = 3;
    private static final long KEEP_MILLIS = 10_000;

    @Autowired
    LuaScripts scripts;

    @Autowired
    StringRedisTemplate redis;

    LuaScript<Long> takeToken;
    LuaScript<Long> returnToken;
    String bucket;

    @BeforeEach
    void bucketOfItsOwn() {
        takeToken = scripts.load("takeToken-1.lua", Long.class);
        returnToken = scripts.load("returnToken-1.lua", Long.class);
        bucket = "lua-test:rate-limit:{" + UUID.randomUUID() + "}";
    }

    @Test
    void aFullBucketGivesItsBurstThenRefusesWithTheWaitForTheNextToken() {
        for (int i = 0; i < BURST; i++) {
            assertThat(take()).as("token %d", i + 1).isZero();
        }

        long wait = take();

        // The bucket was full a moment ago and gives one token an hour: the next comes in just under an hour.
        assertThat(wait).isBetween(MICROS_PER_TOKEN - 60_000_000L, MICROS_PER_TOKEN);
        // One key per bucket (GET), living until the bucket is full again (3 h) plus the keep time (PTTL).
        assertThat(redis.getExpire(bucket)).isBetween(3 * 3600L - 60, 3 * 3600L + KEEP_MILLIS / 1000);
    }

    @Test
    void aRefusalChangesNothing() {
        for (int i = 0; i < BURST; i++) {
            take();
        }
        String before = redis.opsForValue().get(bucket); // GET

        take();
        take();

        assertThat(redis.opsForValue().get(bucket)).isEqualTo(before);
    }

    @Test
    void aReturnedTokenCanBeTakenAgainOnce() {
        for (int i = 0; i < BURST; i++) {
            take();
        }
        assertThat(take()).isPositive();

        assertThat(giveBack()).isEqualTo(1);

        assertThat(take()).isZero();
        assertThat(take()).isPositive();
    }

    @Test
    void aBucketWithNoKeyIsFullAndReturningToItChangesNothing() {
        assertThat(giveBack()).isZero();
        assertThat(redis.hasKey(bucket)).isFalse(); // EXISTS

        for (int i = 0; i < BURST; i++) {
            assertThat(take()).isZero();
        }
        assertThat(take()).isPositive();
    }

    @Test
    void aBucketIsNeverFullerThanFull() {
        take();
        giveBack();
        giveBack();
        giveBack();

        for (int i = 0; i < BURST; i++) {
            assertThat(take()).as("token %d", i + 1).isZero();
        }
        assertThat(take()).isPositive();
    }

    private long take() {
        return takeToken.run(List.of(bucket), Long.toString(MICROS_PER_TOKEN), Long.toString(BURST),
                Long.toString(KEEP_MILLIS));
    }

    private long giveBack() {
        return returnToken.run(List.of(bucket), Long.toString(MICROS_PER_TOKEN));
    }
}
