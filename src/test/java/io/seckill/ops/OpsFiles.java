package io.seckill.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.yaml.snakeyaml.Yaml;

/** The operator's files in {@code ops/} as the tests read them: the alerting rules and the Grafana dashboard. */
final class OpsFiles {

    static final Path RULES = Path.of("ops", "prometheus", "seckill-alerts.yaml");
    static final Path RULE_TESTS = Path.of("ops", "prometheus", "seckill-alerts.test.yaml");
    static final Path DASHBOARD = Path.of("ops", "grafana", "seckill-dashboard.json");
    /** The scrape job the rules expect (ops/README.md). */
    static final String JOB = "seckill";

    private static final Pattern FOR = Pattern.compile("(?m)^(\\s+for: )\\S+$");

    private OpsFiles() {
    }

    /** Each alerting rule's name and expression, in file order. */
    @SuppressWarnings("unchecked")
    static Map<String, String> ruleExpressions() {
        Map<String, Object> file = new Yaml().load(read(RULES));
        Map<String, String> expressions = new LinkedHashMap<>();
        for (Map<String, Object> group : (List<Map<String, Object>>) file.get("groups")) {
            for (Map<String, Object> rule : (List<Map<String, Object>>) group.get("rules")) {
                expressions.put((String) rule.get("alert"), (String) rule.get("expr"));
            }
        }
        return expressions;
    }

    static JsonNode dashboard() {
        try {
            return new ObjectMapper().readTree(read(DASHBOARD));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Every panel's queries, as "panel title → expr" pairs, in panel order (rows hold none). */
    static List<Map.Entry<String, String>> panelExpressions() {
        List<Map.Entry<String, String>> expressions = new ArrayList<>();
        for (JsonNode panel : dashboard().path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                expressions.add(Map.entry(panel.path("title").asText(), target.path("expr").asText()));
            }
        }
        return expressions;
    }

    /**
     * A copy of the rules in {@code dir} with every {@code for:} set to {@code shortFor}, and nothing else changed:
     * a test cannot wait minutes for an alert, but it must fire the rules operators load.
     */
    static Path rulesWithFor(Path dir, String shortFor) {
        String rules = read(RULES);
        Matcher durations = FOR.matcher(rules);
        long count = FOR.matcher(rules).results().count();
        if (count != ruleExpressions().size()) {
            throw new IllegalStateException("Expected one for: per rule in " + RULES + ", found " + count);
        }
        try {
            Files.createDirectories(dir);
            return Files.writeString(dir.resolve(RULES.getFileName()), durations.replaceAll("$1" + shortFor));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
