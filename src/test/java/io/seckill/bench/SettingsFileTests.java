package io.seckill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** bench/settings.txt, the one list of the drivers' settings: the harness reads every line of it and no other name. */
class SettingsFileTests {

    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final Pattern SETTING = Pattern.compile("\\b(BENCH_[A-Z0-9_]*[A-Z0-9])\\b");

    @Test
    void aRunReadsEverySettingOfItsSection() throws Exception {
        SettingsFile run = SettingsFile.read(ROOT, "run.sh", name -> null, false);
        SettingsFile firstSeconds = SettingsFile.read(ROOT, "first-seconds.sh", name -> null, false);

        BenchSettings.from(run, ROOT);
        FirstSeconds.Settings.from(firstSeconds);

        assertThat(run.unread()).isEmpty();
        assertThat(firstSeconds.unread()).isEmpty();
    }

    @Test
    void aNameOutsideTheDriversSectionIsRefused() throws Exception {
        SettingsFile firstSeconds = SettingsFile.read(ROOT, "first-seconds.sh", name -> null, false);

        assertThatThrownBy(() -> firstSeconds.number("BENCH_WARMUP_SECONDS"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("bench/settings.txt");
    }

    @Test
    void theEnvironmentOverridesTheQuickOrTheFullDefaultAndABlankValueIsUnset() throws Exception {
        Map<String, String> environment = Map.of("BENCH_INTAKE_SECONDS", " 7 ", "BENCH_DRAIN_ORDERS", " ",
                "BENCH_LIMIT_CLIENTS", "many");
        SettingsFile quick = SettingsFile.read(ROOT, "run.sh", environment::get, true);
        SettingsFile full = SettingsFile.read(ROOT, "run.sh", environment::get, false);

        assertThat(quick.number("BENCH_INTAKE_SECONDS")).isEqualTo(7);
        assertThat(quick.number("BENCH_DRAIN_ORDERS")).isEqualTo(50_000);
        assertThat(full.number("BENCH_DRAIN_ORDERS")).isEqualTo(500_000);
        assertThat(quick.number("BENCH_WRK_THREADS")).isEqualTo(2);
        assertThat(quick.text("BENCH_E2E_RATE")).isNull();
        assertThatThrownBy(() -> quick.number("BENCH_LIMIT_CLIENTS")).hasMessage(
                "BENCH_LIMIT_CLIENTS is not a whole number: many");
    }

    /** A setting named in the harness, the drivers or the README but missing from the file is one that drifted. */
    @Test
    void everySettingTheHarnessTheScriptsAndTheReadmeNameIsInTheFile() throws Exception {
        Set<String> inFile = names(Files.readString(ROOT.resolve(SettingsFile.PATH)));
        Set<String> named = new TreeSet<>();
        try (Stream<Path> sources = Files.list(ROOT.resolve("src/test/java/io/seckill/bench"))) {
            for (Path source : sources.filter(p -> !p.toString().endsWith("Tests.java")).toList()) {
                named.addAll(names(Files.readString(source)));
            }
        }
        for (String file : new String[] {"bench/README.md", "bench/run.sh", "bench/first-seconds.sh"}) {
            named.addAll(names(Files.readString(ROOT.resolve(file))));
        }

        assertThat(inFile).containsAll(named);
    }

    private static Set<String> names(String text) {
        Set<String> names = new TreeSet<>();
        Matcher matcher = SETTING.matcher(text);
        while (matcher.find()) {
            names.add(matcher.group(1));
        }
        return names;
    }
}
