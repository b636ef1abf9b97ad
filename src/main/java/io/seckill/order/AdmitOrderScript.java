package io.seckill.order;

import io.seckill.lua.AsyncScripts;
import io.seckill.lua.LuaScript;
import io.seckill.lua.LuaScripts;
import io.seckill.stream.RedisKeys;
import java.util.List;
import org.springframework.stereotype.Component;

/** The one atomic step of the intake ({@code lua/admitOrder-4.lua}), on the order requests' own connection. */
@Component
public class AdmitOrderScript {

    private final AsyncScripts redis;
    private final LuaScript<Long> script;
    private final RedisKeys keys;
    private final String paymentTimeoutMillis;

    public AdmitOrderScript(AsyncScripts redis, LuaScripts scripts, RedisKeys keys, OrderProperties orders) {
        this.redis = redis;
        this.script = scripts.load("admitOrder-4.lua", Long.class);
        this.keys = keys;
        this.paymentTimeoutMillis = Long.toString(orders.paymentTimeout().toMillis());
    }

    public AdmissionOutcome admit(long voucherId, long userId, long orderId) {
        String orders = keys.ordersOf(voucherId);
        long code = redis.await(redis.start(script,
                List.of(keys.voucher(voucherId), keys.buyers(voucherId), orders, keys.dueOrdersOf(orders)),
                Long.toString(orderId), Long.toString(voucherId), Long.toString(userId), paymentTimeoutMillis));
        return AdmissionOutcome.ofScriptCode(code);
    }
}
