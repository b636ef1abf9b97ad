package io.seckill.deadletter;

import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import java.util.List;
import java.util.Optional;
import org.apache.camel.component.redis.stream.StreamEntry;
import org.springframework.stereotype.Component;

/** Moves a pending entry to its shard's dead letters and acknowledges it ({@code lua/moveToDeadLetters-2.lua}). */
@Component
public class MoveToDeadLettersScript {

    private final LuaScript<String> script;
    private final RedisKeys keys;
    private final StreamProperties stream;

    public MoveToDeadLettersScript(LuaScripts scripts, RedisKeys keys, StreamProperties stream) {
        this.script = scripts.load("moveToDeadLetters-2.lua", String.class);
        this.keys = keys;
        this.stream = stream;
    }

    /** @return the dead letter's id, empty when this instance no longer holds the entry */
    public Optional<String> move(StreamEntry entry, String reason) {
        return Optional.ofNullable(script.run(List.of(entry.stream(), keys.deadLettersOf(entry.stream())),
                stream.group(), stream.consumerName(), entry.id(), reason));
    }
}
