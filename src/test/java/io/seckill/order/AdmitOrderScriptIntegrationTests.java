package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.lua.LuaScript;
import io.seckill.lua.LuaScripts;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@code lua/admitOrder-4.lua} on its own against the embedded Redis, on keys of its own (a fresh prefix per
 * test): each return code, what acceptance writes, and that a rejection writes nothing.
 */
@SeckillIntegrationTest
class AdmitOrderScriptIntegrationTests {

    private static final long HOUR_MILLIS = 3_600_000;
    private static final String ORDER_ID = "117586936553541632";
    private static final String VOUCHER_ID = "7";
    private static final String BUYER = "42";
    private static final long PAYMENT_TIMEOUT_MILLIS = 90_000;

    private static final long ACCEPTED = 0;
    private static final long VOUCHER_NOT_FOUND = 1;
    private static final long NOT_STARTED = 2;
    private static final long ENDED = 3;
    private static final long SOLD_OUT = 4;
    private static final long ALREADY_ORDERED = 5;

    @Autowired
    LuaScripts scripts;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    Stores stores;

    LuaScript<Long> admitOrder;
    String prefix;
    String voucherKey;
    String buyersKey;
    String ordersKey;
    String dueKey;

    @BeforeEach
    void keysOfItsOwn() {
        admitOrder = scripts.load("admitOrder-4.lua", Long.class);
        prefix = "lua-test:{" + UUID.randomUUID() + "}:";
        voucherKey = prefix + "voucher:" + VOUCHER_ID;
        buyersKey = prefix + "buyers:" + VOUCHER_ID;
        ordersKey = prefix + "orders";
        dueKey = prefix + "orders:due";
    }

    @Test
    void acceptedOrderTakesAUnitRecordsTheBuyerAppendsTheOrderAndSchedulesItsExpiry() {
        onSale(2);
        long before = redisMillis();

        long code = admit(BUYER);

        long after = redisMillis();
        assertThat(code).isEqualTo(ACCEPTED);
        // HINCRBY voucher stock -1
        assertThat(redis.opsForHash().get(voucherKey, "stock")).isEqualTo("1");
        // SADD buyers userId
        assertThat(redis.opsForSet().members(buyersKey)).containsExactly(BUYER);
        // XADD orders * orderId … voucherId … userId … acceptedAt …
        List<MapRecord<String, Object, Object>> entries = redis.opsForStream().range(ordersKey, Range.unbounded());
        assertThat(entries).hasSize(1);
        Map<Object, Object> fields = entries.get(0).getValue();
        assertThat(fields).containsOnlyKeys("orderId", "voucherId", "userId", "acceptedAt", "payBefore")
                .containsEntry("orderId", ORDER_ID)
                .containsEntry("voucherId", VOUCHER_ID)
                .containsEntry("userId", BUYER);
        // The Redis server's clock (TIME), in milliseconds.
        long acceptedAt = Long.parseLong(fields.get("acceptedAt").toString());
        assertThat(acceptedAt).isBetween(before, after);
        long payBefore = acceptedAt + PAYMENT_TIMEOUT_MILLIS;
        assertThat(fields).containsEntry("payBefore", Long.toString(payBefore));
        // ZADD due payBefore orderId:userId
        assertThat(redis.opsForZSet().rangeWithScores(dueKey, 0, -1)).singleElement().satisfies(due -> {
            assertThat(due.getValue()).isEqualTo(ORDER_ID + ":" + BUYER);
            assertThat(due.getScore()).isEqualTo((double) payBefore);
        });
    }

    @Test
    void lastUnitIsAcceptedThenTheNextBuyerHearsSoldOut() {
        onSale(1);

        assertThat(admit("1")).isEqualTo(ACCEPTED);
        assertThat(redis.opsForHash().get(voucherKey, "stock")).isEqualTo("0");
        assertRejectedWithoutAChange("2", SOLD_OUT);
    }

    @Test
    void missingVoucherIsNotFound() {
        assertRejectedWithoutAChange(BUYER, VOUCHER_NOT_FOUND);
        assertThat(stores.keys(prefix + "*")).isEmpty();
    }

    @Test
    void voucherWithBuyersButNoHashIsStillNotFound() {
        // What a rebuild leaves for a moment: buyers first, the hash after (VoucherStateRestorer).
        redis.opsForSet().add(buyersKey, "1");

        assertRejectedWithoutAChange(BUYER, VOUCHER_NOT_FOUND);
    }

    @Test
    void saleNotStartedYet() {
        redis.opsForHash().putAll(voucherKey, Map.of("stock", "5", "beginAt",
                Long.toString(redisMillis() + HOUR_MILLIS)));

        assertRejectedWithoutAChange(BUYER, NOT_STARTED);
    }

    @Test
    void saleEnded() {
        long now = redisMillis();
        redis.opsForHash().putAll(voucherKey, Map.of("stock", "5", "beginAt", Long.toString(now - 2 * HOUR_MILLIS),
                "endAt", Long.toString(now - 1)));

        assertRejectedWithoutAChange(BUYER, ENDED);
    }

    @Test
    void saleEndingLaterStillAccepts() {
        long now = redisMillis();
        redis.opsForHash().putAll(voucherKey, Map.of("stock", "5", "beginAt", Long.toString(now - HOUR_MILLIS),
                "endAt", Long.toString(now + HOUR_MILLIS)));

        assertThat(admit(BUYER)).isEqualTo(ACCEPTED);
    }

    @Test
    void soldOut() {
        onSale(0);

        assertRejectedWithoutAChange(BUYER, SOLD_OUT);
    }

    @Test
    void buyerWhoHasAUnitIsAlreadyOrdered() {
        onSale(3);
        assertThat(admit(BUYER)).isEqualTo(ACCEPTED);

        assertRejectedWithoutAChange(BUYER, ALREADY_ORDERED);
    }

    @Test
    void buyerWhoHasAUnitHearsAlreadyOrderedEvenOnceSoldOut() {
        onSale(1);
        assertThat(admit(BUYER)).isEqualTo(ACCEPTED);

        assertRejectedWithoutAChange(BUYER, ALREADY_ORDERED);
    }

    private void onSale(long stock) {
        // HSET voucher stock … beginAt … (no endAt: never ends)
        redis.opsForHash().putAll(voucherKey, Map.of("stock", Long.toString(stock), "beginAt",
                Long.toString(redisMillis() - HOUR_MILLIS)));
    }

    private long admit(String buyer) {
        // EVALSHA admitOrder-4 4 voucher buyers orders due orderId voucherId userId paymentTimeout
        return admitOrder.run(List.of(voucherKey, buyersKey, ordersKey, dueKey), ORDER_ID, VOUCHER_ID, buyer,
                Long.toString(PAYMENT_TIMEOUT_MILLIS));
    }

    private void assertRejectedWithoutAChange(String buyer, long expectedCode) {
        Map<String, Object> before = stores.keys(prefix + "*");

        assertThat(admit(buyer)).isEqualTo(expectedCode);

        assertThat(stores.keys(prefix + "*")).isEqualTo(before);
    }

    private long redisMillis() {
        // TIME
        return redis.execute((RedisCallback<Long>) connection -> connection.serverCommands().time());
    }
}
