package io.seckill.expiry;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The expiry's scripts alone against the embedded Redis, on keys of their own (a fresh prefix per test):
 * {@code popDueOrders-2.lua} (due vs not due, lease expiry, a member settled meanwhile), {@code returnUnit-3.lua}
 * (once per order, never while the voucher is being rebuilt), {@code deferDueOrder-2.lua}, and the rebuild's
 * {@code findUnreturnedUnits-2.lua} and {@code scheduleUnpaidOrders-3.lua}. A lease that "ran out" is a score in the past, exactly what
 * Redis holds once its time has passed.
 */
@SeckillIntegrationTest
class UnpaidOrderScriptsIntegrationTests {

    private static final long LEASE_MILLIS = 30_000;

    @Autowired
    LuaScripts scripts;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    Stores stores;

    LuaScript<List> popDue;
    LuaScript<Long> returnUnit;
    LuaScript<Long> deferDue;
    LuaScript<List> findUnreturned;
    LuaScript<Long> scheduleUnpaid;
    String prefix;
    String dueKey;
    String cancellingKey;
    String voucherKey;
    String buyersKey;

    @BeforeEach
    void keysOfItsOwn() {
        popDue = scripts.load("popDueOrders-2.lua", List.class);
        returnUnit = scripts.load("returnUnit-3.lua", Long.class);
        deferDue = scripts.load("deferDueOrder-2.lua", Long.class);
        findUnreturned = scripts.load("findUnreturnedUnits-2.lua", List.class);
        scheduleUnpaid = scripts.load("scheduleUnpaidOrders-3.lua", Long.class);
        prefix = "lua-test:{" + UUID.randomUUID() + "}:";
        dueKey = prefix + "orders:due";
        cancellingKey = prefix + "orders:cancelling";
        voucherKey = prefix + "voucher:9";
        buyersKey = prefix + "buyers:9";
    }

    @Test
    void onlyDueOrdersAreTakenOldestFirstEachUnderALease() {
        long now = redisMillis();
        // ZADD due payBefore member
        redis.opsForZSet().add(dueKey, "1:11", now - 5_000);
        redis.opsForZSet().add(dueKey, "2:12", now - 1_000);
        redis.opsForZSet().add(dueKey, "3:13", now + 60_000);

        List<String> taken = pop(10);

        long after = redisMillis();
        assertThat(taken).containsExactly("1:11", "2:12");
        assertThat(redis.opsForZSet().range(dueKey, 0, -1)).containsExactly("3:13");
        // ZSCORE cancelling member: the lease deadline, now + lease by the Redis clock
        for (String member : taken) {
            assertThat(redis.opsForZSet().score(cancellingKey, member)).isBetween((double) now + LEASE_MILLIS,
                    (double) after + LEASE_MILLIS);
        }
        assertThat(pop(10)).as("taken orders are not taken again while leased").isEmpty();
    }

    @Test
    void takesAtMostTheLimit() {
        long now = redisMillis();
        for (int i = 1; i <= 5; i++) {
            redis.opsForZSet().add(dueKey, i + ":1" + i, now - 100 * (10 - i));
        }

        assertThat(pop(2)).containsExactly("1:11", "2:12");
        assertThat(pop(2)).containsExactly("3:13", "4:14");
        assertThat(pop(2)).containsExactly("5:15");
    }

    @Test
    void anOrderWhoseLeaseRanOutIsTakenAgainWithANewLease() {
        long now = redisMillis();
        // What an instance that died mid-cancel leaves: its lease in the past, and one still running.
        redis.opsForZSet().add(cancellingKey, "1:11", now - 1);
        redis.opsForZSet().add(cancellingKey, "2:12", now + 10_000);

        assertThat(pop(10)).containsExactly("1:11");
        assertThat(redis.opsForZSet().score(cancellingKey, "1:11")).isGreaterThanOrEqualTo(now + LEASE_MILLIS);
        assertThat(redis.opsForZSet().score(cancellingKey, "2:12")).isEqualTo((double) now + 10_000);
    }

    @Test
    void anOrderSettledMeanwhileIsNotTakenAgain() {
        long now = redisMillis();
        redis.opsForZSet().add(dueKey, "1:11", now - 1);
        onSale(0, "11");
        assertThat(pop(10)).containsExactly("1:11");

        // Settled (unit returned) by the taker; then its lease runs out, as it would have.
        assertThat(returnUnit("1:11", "11")).isEqualTo(1);

        assertThat(redis.opsForZSet().score(cancellingKey, "1:11")).isNull();
        assertThat(pop(10)).isEmpty();
    }

    @Test
    void aDueOrderAlreadyBeingCancelledIsDroppedFromDueNotTakenTwice() {
        long now = redisMillis();
        redis.opsForZSet().add(cancellingKey, "1:11", now + 10_000);
        redis.opsForZSet().add(dueKey, "1:11", now - 1);

        assertThat(pop(10)).isEmpty();
        assertThat(redis.opsForZSet().size(dueKey)).isZero();
        assertThat(redis.opsForZSet().score(cancellingKey, "1:11")).isEqualTo((double) now + 10_000);
    }

    @Test
    void theUnitOfACancelledOrderGoesBackOnSaleExactlyOnce() {
        onSale(4, "11", "12");
        redis.opsForZSet().add(cancellingKey, "1:11", redisMillis() + LEASE_MILLIS);

        // Two callers, e.g. the one whose lease ran out and the one who took the order after it.
        assertThat(returnUnit("1:11", "11")).isEqualTo(1);
        assertThat(returnUnit("1:11", "11")).isZero();

        // HINCRBY stock 1, SREM buyers 11: once
        assertThat(redis.opsForHash().get(voucherKey, "stock")).isEqualTo("5");
        assertThat(redis.opsForSet().members(buyersKey)).containsExactly("12");
    }

    @Test
    void aVoucherWhoseStateIsGoneIsNotResurrectedByAReturn() {
        redis.opsForZSet().add(cancellingKey, "1:11", redisMillis() + LEASE_MILLIS);

        assertThat(returnUnit("1:11", "11")).isEqualTo(1);

        assertThat(redis.hasKey(voucherKey)).isFalse();
    }

    @Test
    void noUnitIsReturnedWhileTheVoucherIsBeingRebuilt() {
        onSale(4, "11");
        redis.opsForHash().put(voucherKey, "rebuilding", "other@1");
        redis.opsForZSet().add(cancellingKey, "1:11", redisMillis() + LEASE_MILLIS);
        Map<String, Object> before = stores.keys(prefix + "*");

        assertThat(returnUnit("1:11", "11")).as("try again once rebuilt").isEqualTo(2);

        assertThat(stores.keys(prefix + "*")).isEqualTo(before);
    }

    @Test
    void aCancelledOrderWhoseTokenIsDueOrBeingCancelledHasNotHadItsUnitReturned() {
        redis.opsForZSet().add(dueKey, "1:11", 1);
        redis.opsForZSet().add(cancellingKey, "2:12", 2);

        // EVALSHA findUnreturnedUnits-2 2 due cancelling 1:11 2:12 3:13
        assertThat(findUnreturned.run(List.of(dueKey, cancellingKey), "1:11", "2:12", "3:13"))
                .containsExactly("1:11", "2:12");
    }

    @Test
    void aRebuildSchedulesUnpaidOrdersUnderItsMarkBesideNoOrderBeingCancelled() {
        onSale(0, "11", "12", "13");
        redis.opsForHash().put(voucherKey, "rebuilding", "mine@1");
        redis.opsForZSet().add(dueKey, "1:11", 100);
        redis.opsForZSet().add(cancellingKey, "2:12", 200);

        // EVALSHA scheduleUnpaidOrders-3 3 voucher due cancelling mine@1 101 1:11 201 2:12 301 3:13
        assertThat(scheduleUnpaid.run(List.of(voucherKey, dueKey, cancellingKey), "mine@1", "101", "1:11", "201",
                "2:12", "301", "3:13")).isEqualTo(1);

        assertThat(redis.opsForZSet().score(dueKey, "1:11")).as("due already: keeps its place").isEqualTo(100);
        assertThat(redis.opsForZSet().score(dueKey, "2:12")).as("left to its canceller").isNull();
        assertThat(redis.opsForZSet().score(dueKey, "3:13")).isEqualTo(301);
        assertThat(redis.opsForZSet().score(cancellingKey, "2:12")).isEqualTo(200);
    }

    @Test
    void aRebuildThatLostItsMarkSchedulesNothing() {
        onSale(0, "13");
        redis.opsForHash().put(voucherKey, "rebuilding", "later@2");
        Map<String, Object> before = stores.keys(prefix + "*");

        assertThat(scheduleUnpaid.run(List.of(voucherKey, dueKey, cancellingKey), "mine@1", "301", "3:13"))
                .isZero();

        assertThat(stores.keys(prefix + "*")).isEqualTo(before);
    }

    @Test
    void anOrderNotWrittenYetIsPutBackForLater() {
        redis.opsForZSet().add(cancellingKey, "1:11", redisMillis() + LEASE_MILLIS);
        long before = redisMillis();

        assertThat(deferDue.run(List.of(cancellingKey, dueKey), "1:11", "5000")).isEqualTo(1);

        assertThat(redis.opsForZSet().score(cancellingKey, "1:11")).isNull();
        assertThat(redis.opsForZSet().score(dueKey, "1:11")).isBetween((double) before + 5000,
                (double) redisMillis() + 5000);
        assertThat(pop(10)).as("not due before the delay").isEmpty();
    }

    @Test
    void deferringAnOrderNoLongerBeingCancelledChangesNothing() {
        Map<String, Object> before = stores.keys(prefix + "*");

        assertThat(deferDue.run(List.of(cancellingKey, dueKey), "1:11", "5000")).isZero();

        assertThat(stores.keys(prefix + "*")).isEqualTo(before);
    }

    @SuppressWarnings("unchecked")
    private List<String> pop(int max) {
        // EVALSHA popDueOrders-2 2 due cancelling lease max
        return popDue.run(List.of(dueKey, cancellingKey), Long.toString(LEASE_MILLIS), Integer.toString(max));
    }

    private long returnUnit(String member, String userId) {
        // EVALSHA returnUnit-3 3 cancelling voucher buyers member userId voucherId channel
        return returnUnit.run(List.of(cancellingKey, voucherKey, buyersKey), member, userId, "9",
                prefix + "sale-view");
    }

    private void onSale(long stock, String... buyers) {
        redis.opsForHash().putAll(voucherKey, Map.of("stock", Long.toString(stock), "beginAt", "0"));
        if (buyers.length > 0) {
            redis.opsForSet().add(buyersKey, buyers);
        }
    }

    private long redisMillis() {
        // TIME
        return redis.execute((RedisCallback<Long>) connection -> connection.serverCommands().time());
    }
}
