package io.seckill.expiry;

import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import java.time.Duration;
import java.util.List;
import org.springframework.stereotype.Component;

/** Puts a taken order back among the due ones for later ({@code lua/deferDueOrder-2.lua}). */
@Component
public class DeferDueOrderScript {

    private final LuaScript<Long> script;

    public DeferDueOrderScript(LuaScripts scripts) {
        this.script = scripts.load("deferDueOrder-2.lua", Long.class);
    }

    public void defer(String cancellingKey, String dueKey, String member, Duration delay) {
        script.run(List.of(cancellingKey, dueKey), member, Long.toString(delay.toMillis()));
    }
}
