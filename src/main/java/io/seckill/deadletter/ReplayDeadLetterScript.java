package io.seckill.deadletter;

import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import java.util.List;
import java.util.Optional;
import org.springframework.stereotype.Component;

/** Puts a dead letter back on its orders stream ({@code lua/replayDeadLetter-2.lua}). */
@Component
public class ReplayDeadLetterScript {

    private final LuaScript<String> script;

    public ReplayDeadLetterScript(LuaScripts scripts) {
        this.script = scripts.load("replayDeadLetter-2.lua", String.class);
    }

    /** @return the new orders-stream entry id, empty when there is no such dead letter */
    public Optional<String> replay(String deadStream, String ordersStream, String deadLetterId) {
        return Optional.ofNullable(script.run(List.of(deadStream, ordersStream), deadLetterId));
    }
}
