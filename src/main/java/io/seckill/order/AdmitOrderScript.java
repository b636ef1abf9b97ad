package io.seckill.order;

import io.seckill.lua.LuaScript;
import io.seckill.lua.LuaScripts;
import io.seckill.stream.RedisKeys;
import java.util.List;
import org.springframework.stereotype.Component;

/** The one atomic step of the intake ({@code lua/admitOrder-3.lua}). */
@Component
public class AdmitOrderScript {

    private final LuaScript<Long> script;
    private final RedisKeys keys;

    public AdmitOrderScript(LuaScripts scripts, RedisKeys keys) {
        this.script = scripts.load("admitOrder-3.lua", Long.class);
        this.keys = keys;
    }

    public AdmissionOutcome admit(long voucherId, long userId, long orderId) {
        Long code = script.run(
                List.of(keys.voucher(voucherId), keys.buyers(voucherId), keys.ordersOf(voucherId)),
                Long.toString(orderId), Long.toString(voucherId), Long.toString(userId));
        return AdmissionOutcome.ofScriptCode(code);
    }
}
