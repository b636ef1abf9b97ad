package io.seckill.stream;

import io.seckill.lua.LuaScript;
import io.seckill.lua.LuaScripts;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.stereotype.Component;

/** XACK of entries whose orders are written, and their removal from the stream ({@code lua/ackEntries-1.lua}). */
@Component
public class AckEntriesScript {

    private final LuaScript<Long> script;

    public AckEntriesScript(LuaScripts scripts) {
        this.script = scripts.load("ackEntries-1.lua", Long.class);
    }

    /**
     * @param group the consumer group the entries were read through (a redis-stream endpoint's own)
     * @return how many of the entries were still pending
     */
    public long ack(String stream, String group, Collection<String> ids) {
        if (ids.isEmpty()) {
            return 0;
        }
        List<Object> args = new ArrayList<>(ids.size() + 1);
        args.add(group);
        args.addAll(ids);
        return script.run(List.of(stream), args.toArray());
    }

    /** Entries may come from several shard streams (the sweeper's claims): one call per stream. */
    public long ack(String group, List<StreamEntry> entries) {
        Map<String, List<String>> idsByStream = new LinkedHashMap<>();
        for (StreamEntry entry : entries) {
            idsByStream.computeIfAbsent(entry.stream(), s -> new ArrayList<>()).add(entry.id());
        }
        long acked = 0;
        for (Map.Entry<String, List<String>> stream : idsByStream.entrySet()) {
            acked += ack(stream.getKey(), group, stream.getValue());
        }
        return acked;
    }
}
