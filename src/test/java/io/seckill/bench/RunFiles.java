package io.seckill.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a run left in its folder for the summary: {@code logs/run.txt}, the facts run.sh noted (settings, the
 * machine, figures it read off the processes: peak RSS, Redis's counts), and each step's results file in
 * {@code logs/}. A file a skipped leg never wrote reads as empty: its figures are missing, not 0.
 */
final class RunFiles {

    static final String FACTS = "run.txt";

    private final Path run;
    private final Path logs;
    private final Map<String, Map<String, String>> read = new HashMap<>();

    RunFiles(Path run) {
        this.run = run;
        this.logs = run.resolve("logs");
    }

    /** A fact run.sh noted; "" when it did not. */
    String fact(String key) {
        return value(FACTS, key);
    }

    /** KEY's value in logs/NAME; "" when the file or the key is missing. */
    String value(String name, String key) {
        return results(name).getOrDefault(key, "");
    }

    /** Every line of logs/NAME; empty when the step did not run. */
    Map<String, String> results(String name) {
        return read.computeIfAbsent(name, n -> {
            Path file = logs.resolve(n);
            try {
                return Files.exists(file) ? ResultLines.read(file) : Map.of();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
    }

    boolean hasLog(String name) {
        return Files.exists(logs.resolve(name));
    }

    /** A file beside the summary (a picture), by name. */
    boolean hasFile(String name) {
        return Files.exists(run.resolve(name));
    }

    /** Field N (from 1) of the last line of a CSV in logs/ whose fields are all quoted (redis-benchmark --csv). */
    String csvField(String name, int n) {
        try {
            Path file = logs.resolve(name);
            List<String> lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
            if (lines.isEmpty()) {
                return "";
            }
            String[] fields = lines.get(lines.size() - 1).split("\",\"");
            return n <= fields.length ? fields[n - 1].replace("\"", "") : "";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
