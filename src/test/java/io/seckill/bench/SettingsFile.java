package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A driver's settings: the environment's values over the defaults in bench/settings.txt, the one list of them that
 * the scripts' --help prints too. Asking for a name the driver's section does not hold fails, and {@link #unread()}
 * names the lines nothing asked for, so the harness and the file cannot drift apart (SettingsFileTests).
 */
final class SettingsFile {

    static final String PATH = "bench/settings.txt";

    /** A line's DEFAULT and QUICK: an empty DEFAULT is none, an empty QUICK the same as DEFAULT. */
    private record Setting(String defaultValue, String quickDefault) {
    }

    private final Map<String, Setting> settings;
    private final Function<String, String> environment;
    private final boolean quick;
    private final Set<String> asked = new HashSet<>();

    private SettingsFile(Map<String, Setting> settings, Function<String, String> environment, boolean quick) {
        this.settings = settings;
        this.environment = environment;
        this.quick = quick;
    }

    /** DRIVER's section ([run.sh], [first-seconds.sh]) of ROOT's bench/settings.txt; QUICK for run.sh --quick. */
    static SettingsFile read(Path root, String driver, Function<String, String> environment, boolean quick)
            throws IOException {
        Map<String, Setting> settings = new LinkedHashMap<>();
        String section = null;
        List<String> lines = Files.readAllLines(root.resolve(PATH));
        for (int n = 1; n <= lines.size(); n++) {
            String line = lines.get(n - 1).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("[")) {
                section = line;
                continue;
            }
            String[] fields = line.split("\\s*\\|\\s*", -1);
            if (fields.length != 4 || section == null) {
                throw new IOException(PATH + ":" + n + " is not a setting of a section: NAME | DEFAULT | QUICK | WHAT");
            }
            if (section.equals("[" + driver + "]")
                    && settings.putIfAbsent(fields[0], new Setting(fields[1], fields[2])) != null) {
                throw new IOException(PATH + ":" + n + " names " + fields[0] + " a second time in " + section);
            }
        }
        if (settings.isEmpty()) {
            throw new IOException(PATH + " has no settings for " + driver);
        }
        return new SettingsFile(settings, environment, quick);
    }

    boolean quick() {
        return quick;
    }

    /** NAME as the environment has it, null when unset (for a setting whose empty value means something). */
    String environment(String name) {
        setting(name);
        return environment.apply(name);
    }

    /** NAME's value: the environment's, stripped, unless unset or blank; else its default (a quick run's); or null. */
    String text(String name) {
        Setting setting = setting(name);
        String value = environment.apply(name);
        if (value != null && !value.isBlank()) {
            return value.strip();
        }
        String fallback = quick && !setting.quickDefault().isEmpty() ? setting.quickDefault() : setting.defaultValue();
        return fallback.isEmpty() ? null : fallback;
    }

    int number(String name) {
        String value = text(name);
        if (value == null) {
            throw new IllegalArgumentException(name + " has no default in " + PATH + ": set it");
        }
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(name + " is not a whole number: " + value, e);
        }
    }

    /** The names of this section nothing has asked for yet. */
    Set<String> unread() {
        Set<String> unread = new HashSet<>(settings.keySet());
        unread.removeAll(asked);
        return unread;
    }

    private Setting setting(String name) {
        Setting setting = settings.get(name);
        if (setting == null) {
            throw new IllegalArgumentException(name + " is not a setting in " + PATH + ": add it there");
        }
        asked.add(name);
        return setting;
    }
}
