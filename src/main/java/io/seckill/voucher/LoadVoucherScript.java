package io.seckill.voucher;

import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import io.seckill.redis.RedisKeys;
import java.util.List;
import org.springframework.stereotype.Component;

/** Puts a voucher's stock and window into Redis unless they are there ({@code lua/loadVoucher-1.lua}). */
@Component
public class LoadVoucherScript {

    private final LuaScript<Long> script;
    private final RedisKeys keys;

    public LoadVoucherScript(LuaScripts scripts, RedisKeys keys) {
        this.script = scripts.load("loadVoucher-1.lua", Long.class);
        this.keys = keys;
    }

    /** @return true when loaded, false when Redis had the voucher already */
    public boolean load(Voucher voucher, long remaining) {
        Long loaded = script.run(List.of(keys.voucher(voucher.id())),
                Long.toString(remaining),
                Long.toString(voucher.beginAt().toEpochMilli()),
                voucher.endAt() == null ? "" : Long.toString(voucher.endAt().toEpochMilli()));
        return loaded != null && loaded == 1;
    }
}
