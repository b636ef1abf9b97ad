package io.seckill.stream;

import java.util.Map;

/** One entry read from a Redis stream: the stream it came from, its id and its fields. */
public record StreamEntry(String stream, String id, Map<String, String> fields) {

    public StreamEntry {
        fields = fields == null ? Map.of() : Map.copyOf(fields);
    }
}
