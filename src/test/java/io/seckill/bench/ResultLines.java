package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The format every step of the harness leaves its results in: one {@code key=value} line each, on standard output,
 * which bench/run.sh writes to a file per step (logs/*.txt) and reads back. The last line of a key wins, as run.sh's
 * {@code val} reads it.
 */
final class ResultLines {

    private ResultLines() {
    }

    static void print(String key, Object value) {
        System.out.println(key + "=" + value);
    }

    /** Nanoseconds as milliseconds with two decimals, the resolution the summaries have always printed. */
    static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }

    static String perSecond(double value) {
        return String.format(Locale.ROOT, "%.0f", value);
    }

    /** Adds LINES to a step's results FILE: what the driver read beside the step. */
    static void append(Path file, String... lines) throws IOException {
        Files.writeString(file, String.join("\n", lines) + "\n", StandardOpenOption.APPEND);
    }

    static Map<String, String> read(Path file) throws IOException {
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : Files.readAllLines(file)) {
            int equals = line.indexOf('=');
            if (equals > 0) {
                values.put(line.substring(0, equals), line.substring(equals + 1));
            }
        }
        return values;
    }
}
