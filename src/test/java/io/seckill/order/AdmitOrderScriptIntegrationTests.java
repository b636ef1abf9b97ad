package io.seckill.order;

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
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.stream.MapRecord;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@code lua/admitOrder-6.lua} on its own against the embedded Redis, on keys of its own (a fresh prefix per
 * test): each return code, what acceptance writes, that a rejection writes nothing, and the rate-limit buckets it
 * takes its tokens from. The limits' rate is slow (one token an hour) so that no token comes back during a test.
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
    private static final long BUYER_RATE_LIMITED = 7;
    private static final long ADDRESS_RATE_LIMITED = 8;

    private static final String ADDRESS = "198.51.100.7";
    private static final long MICROS_PER_TOKEN = 3_600_000_000L;
    private static final long KEEP_MILLIS = 10_000;
    /** Tokens of a full bucket, per kind; {@link #NO_LIMIT} switches a kind off. */
    private static final long NO_LIMIT = 0;

    @Autowired
    LuaScripts scripts;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    Stores stores;

    @SuppressWarnings("rawtypes")
    LuaScript<List> admitOrder;
    String prefix;
    String voucherKey;
    String buyersKey;
    String ordersKey;
    String dueKey;
    long buyerBurst = NO_LIMIT;
    long addressBurst = NO_LIMIT;

    @BeforeEach
    void keysOfItsOwn() {
        admitOrder = scripts.load("admitOrder-6.lua", List.class);
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
        long beginAt = redisMillis() + HOUR_MILLIS;
        redis.opsForHash().putAll(voucherKey, Map.of("stock", "5", "beginAt", Long.toString(beginAt)));

        assertRejectedWithoutAChange(BUYER, NOT_STARTED);
        // The start, the end (-1: never) and the server's time, for the instance to answer from memory till then.
        long before = redisMillis();
        List<?> answer = answer(BUYER, ADDRESS);
        assertThat(answer).hasSize(4);
        assertThat(List.<Object>copyOf(answer.subList(0, 3))).containsExactly(NOT_STARTED, beginAt, -1L);
        assertThat((Long) answer.get(3)).isBetween(before, redisMillis());
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

    @Test
    void aFullBuyerBucketGivesItsBurstThenRefusesWithTheWaitForTheNextToken() {
        onSale(5);
        buyerBurst = 3;
        // Every answer that is not a rate-limit refusal takes a token: the order, then ALREADY_ORDERED twice.
        assertThat(List.of(admit(BUYER), admit(BUYER), admit(BUYER)))
                .containsExactly(ACCEPTED, ALREADY_ORDERED, ALREADY_ORDERED);

        List<?> refused = answer(BUYER, ADDRESS);

        assertThat(refused.get(0)).isEqualTo(BUYER_RATE_LIMITED);
        // The bucket was full a moment ago and gives one token an hour: the next comes in just under an hour.
        assertThat((Long) refused.get(1)).isBetween(MICROS_PER_TOKEN - 60_000_000L, MICROS_PER_TOKEN);
        // One key per bucket on the voucher's shard, living until the bucket is full again (3 h) plus the keep
        // time (PTTL).
        assertThat(redis.getExpire(buyerBucket(BUYER))).isBetween(3 * 3600L - 60, 3 * 3600L + KEEP_MILLIS / 1000);
        assertThat(redis.hasKey(addressBucket(ADDRESS))).as("address limit off: no bucket").isFalse();
    }

    @Test
    void aRateLimitRefusalChangesNothing() {
        onSale(5);
        buyerBurst = 1;
        addressBurst = 2;
        assertThat(admit("1")).isEqualTo(ACCEPTED);

        assertRejectedWithoutAChange("1", BUYER_RATE_LIMITED);

        assertThat(admit("2")).isEqualTo(ACCEPTED);
        assertRejectedWithoutAChange("3", ADDRESS_RATE_LIMITED);
    }

    @Test
    void aBuyerOverTheirOwnLimitSpendsNoneOfTheAddressTokens() {
        onSale(5);
        buyerBurst = 1;
        addressBurst = 3;
        assertThat(admit("1")).isEqualTo(ACCEPTED);
        for (int i = 0; i < 5; i++) {
            assertThat(admit("1")).as("hammering, request %d", i + 1).isEqualTo(BUYER_RATE_LIMITED);
        }

        // The address gave one token to buyer 1: two are left for everyone else behind it.
        assertThat(List.of(admit("2"), admit("3"), admit("4"))).containsExactly(ACCEPTED, ACCEPTED,
                ADDRESS_RATE_LIMITED);
    }

    @Test
    void aRequestTheAddressRefusesCostsTheBuyerNoToken() {
        onSale(5);
        buyerBurst = 1;
        addressBurst = 1;
        assertThat(admit("1")).isEqualTo(ACCEPTED);
        assertThat(admit("2")).isEqualTo(ADDRESS_RATE_LIMITED);

        // Buyer 2's one token is still there, from another address.
        assertThat(answer("2", "198.51.100.8").get(0)).isEqualTo(ACCEPTED);
    }

    @Test
    void requestsForASoldOutVoucherCountAgainstTheLimits() {
        onSale(0);
        buyerBurst = 2;

        // A bot hammering a sold-out sale is slowed down like any other.
        assertThat(List.of(admit(BUYER), admit(BUYER), admit(BUYER)))
                .containsExactly(SOLD_OUT, SOLD_OUT, BUYER_RATE_LIMITED);
    }

    private void onSale(long stock) {
        // HSET voucher stock … beginAt … (no endAt: never ends)
        redis.opsForHash().putAll(voucherKey, Map.of("stock", Long.toString(stock), "beginAt",
                Long.toString(redisMillis() - HOUR_MILLIS)));
    }

    private long admit(String buyer) {
        return (Long) answer(buyer, ADDRESS).get(0);
    }

    private List<?> answer(String buyer, String address) {
        // EVALSHA admitOrder-6 6 voucher buyers orders due buyerBucket addressBucket
        //         orderId voucherId userId paymentTimeout buyerInterval buyerBurst addressInterval addressBurst keep
        return admitOrder.run(List.of(voucherKey, buyersKey, ordersKey, dueKey, buyerBucket(buyer),
                        addressBucket(address)), ORDER_ID, VOUCHER_ID, buyer, Long.toString(PAYMENT_TIMEOUT_MILLIS),
                interval(buyerBurst), Long.toString(buyerBurst), interval(addressBurst), Long.toString(addressBurst),
                Long.toString(KEEP_MILLIS));
    }

    private String buyerBucket(String buyer) {
        return prefix + "rate-limit:buyer:" + buyer;
    }

    private String addressBucket(String address) {
        return prefix + "rate-limit:address:" + address;
    }

    private static String interval(long burst) {
        return burst == NO_LIMIT ? "0" : Long.toString(MICROS_PER_TOKEN);
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
