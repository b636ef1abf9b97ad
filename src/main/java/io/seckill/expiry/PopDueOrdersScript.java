package io.seckill.expiry;

import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import java.time.Duration;
import java.util.List;
import org.springframework.stereotype.Component;

/** Takes due unpaid orders of one shard under a lease ({@code lua/popDueOrders-2.lua}). */
@Component
public class PopDueOrdersScript {

    private final LuaScript<List> script;

    public PopDueOrdersScript(LuaScripts scripts) {
        this.script = scripts.load("popDueOrders-2.lua", List.class);
    }

    /** @return members {@code <orderId>:<userId>}, each now being cancelled by the caller until the lease ends */
    @SuppressWarnings("unchecked")
    public List<String> pop(String dueKey, String cancellingKey, Duration lease, int max) {
        List<String> taken = script.run(List.of(dueKey, cancellingKey), Long.toString(lease.toMillis()),
                Integer.toString(max));
        return taken == null ? List.of() : taken;
    }
}
