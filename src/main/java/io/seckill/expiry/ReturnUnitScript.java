package io.seckill.expiry;

import io.seckill.lua.LuaScript;
import io.seckill.lua.LuaScripts;
import io.seckill.stream.RedisKeys;
import java.util.List;
import org.springframework.stereotype.Component;

/** Puts a cancelled order's unit back on sale, once per order ({@code lua/returnUnit-3.lua}). */
@Component
public class ReturnUnitScript {

    private final LuaScript<Long> script;
    private final RedisKeys keys;

    public ReturnUnitScript(LuaScripts scripts, RedisKeys keys) {
        this.script = scripts.load("returnUnit-3.lua", Long.class);
        this.keys = keys;
    }

    /** @return true when this call returned the unit, false when it had been returned already */
    public boolean returnUnit(long voucherId, String member, long userId) {
        Long returned = script.run(
                List.of(keys.cancellingOrdersOf(keys.ordersOf(voucherId)), keys.voucher(voucherId),
                        keys.buyers(voucherId)),
                member, Long.toString(userId));
        return returned != null && returned == 1;
    }
}
