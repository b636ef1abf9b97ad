package io.seckill.voucher;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import io.seckill.support.SeckillIntegrationTest;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * {@code lua/loadVoucher-1.lua} on its own, on a key of its own: a voucher's sale state goes in once, and a
 * second load (another instance restoring, a retried create) never overwrites a stock buyers are taking from.
 */
@SeckillIntegrationTest
class LoadVoucherScriptIntegrationTests {

    @Autowired
    LuaScripts scripts;

    @Autowired
    StringRedisTemplate redis;

    LuaScript<Long> loadVoucher;
    String voucherKey;

    @BeforeEach
    void keyOfItsOwn() {
        loadVoucher = scripts.load("loadVoucher-1.lua", Long.class);
        voucherKey = "lua-test:{" + UUID.randomUUID() + "}:voucher:7";
    }

    @Test
    void loadsStockAndWindowOnce() {
        assertThat(load("100", "1795000000000", "1795003600000")).isEqualTo(1);

        assertThat(hash()).isEqualTo(Map.of("stock", "100", "beginAt", "1795000000000", "endAt", "1795003600000"));
    }

    @Test
    void secondLoadChangesNothing() {
        load("100", "1795000000000", "1795003600000");
        // HINCRBY: buyers took units meanwhile
        redis.opsForHash().increment(voucherKey, "stock", -3);

        assertThat(load("100", "1", "")).isZero();

        assertThat(hash()).isEqualTo(Map.of("stock", "97", "beginAt", "1795000000000", "endAt", "1795003600000"));
    }

    @Test
    void saleThatNeverEndsHasNoEndAt() {
        assertThat(load("5", "1795000000000", "")).isEqualTo(1);

        assertThat(hash()).isEqualTo(Map.of("stock", "5", "beginAt", "1795000000000"));
    }

    private long load(String stock, String beginAt, String endAt) {
        // EVALSHA loadVoucher-1 1 voucher stock beginAt endAt
        return loadVoucher.run(List.of(voucherKey), stock, beginAt, endAt);
    }

    private Map<Object, Object> hash() {
        // HGETALL
        return redis.opsForHash().entries(voucherKey);
    }
}
