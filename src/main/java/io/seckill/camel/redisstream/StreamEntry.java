package io.seckill.camel.redisstream;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One entry read from a Redis stream: the stream it came from, its id and its fields. The body of a
 * {@code redis-stream:} exchange is a list of them, in stream order.
 */
public record StreamEntry(String stream, String id, Map<String, String> fields) {

    public StreamEntry {
        fields = fields == null ? Map.of() : Map.copyOf(fields);
    }

    /** The ids of these entries per stream, each list in the entries' order: Redis commands take one key. */
    public static Map<String, List<String>> idsByStream(List<StreamEntry> entries) {
        Map<String, List<String>> idsByStream = new LinkedHashMap<>();
        for (StreamEntry entry : entries) {
            idsByStream.computeIfAbsent(entry.stream(), stream -> new ArrayList<>()).add(entry.id());
        }
        return idsByStream;
    }
}
