package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What only the driver knows, for the summary ({@link RunFiles#fact}): the settings, the machine, and what the legs
 * read off the processes (peak RSS, Redis's counts); written to logs/run.txt in the order they were noted.
 */
final class RunFacts {

    private final Map<String, Object> facts = new LinkedHashMap<>();

    void note(String key, Object value) {
        facts.put(key, value);
    }

    void write(Path logs) throws IOException {
        Files.writeString(logs.resolve(RunFiles.FACTS), facts.entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue() + "\n").reduce("", String::concat));
    }
}
