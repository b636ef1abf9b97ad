package io.seckill.voucher;

import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import io.seckill.redis.RedisKeys;
import java.util.List;
import org.springframework.stereotype.Component;

/**
 * Puts a new voucher's stock and window into Redis unless they are there ({@code lua/loadVoucher-1.lua}), one
 * script per stock bucket.
 */
@Component
public class LoadVoucherScript {

    private final LuaScript<Long> script;
    private final RedisKeys keys;

    public LoadVoucherScript(LuaScripts scripts, RedisKeys keys) {
        this.script = scripts.load("loadVoucher-1.lua", Long.class);
        this.keys = keys;
    }

    /** @return true when loaded, false when Redis had (a bucket of) the voucher already */
    public boolean load(Voucher voucher) {
        for (int bucket = 0; bucket < voucher.buckets(); bucket++) {
            Long loaded = script.run(List.of(keys.voucherOn(keys.bucketShard(voucher.id(), bucket), voucher.id())),
                    Long.toString(voucher.initialStock(bucket)),
                    Long.toString(voucher.beginAt().toEpochMilli()),
                    voucher.endAt() == null ? "" : Long.toString(voucher.endAt().toEpochMilli()),
                    Integer.toString(voucher.buckets()));
            if (loaded == null || loaded != 1) {
                return false;
            }
        }
        return true;
    }
}
