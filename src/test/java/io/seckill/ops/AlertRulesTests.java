package io.seckill.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.support.PrometheusServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

/**
 * ops/prometheus/seckill-alerts.yaml as Prometheus's own tool sees it: {@code promtool check rules} (syntax, PromQL,
 * templates) and {@code promtool test rules} on seckill-alerts.test.yaml; and what an operator relies on in each rule
 * (a severity to route by, what to look at, which section to read, a fire and a quiet case in the unit tests).
 * promtool comes with Debian's {@code prometheus} package; without it these tests are skipped, and fail in CI.
 */
class AlertRulesTests {

    /** The operating sections of docs/operations.md, as GitHub makes anchors of their headings. */
    private static final Set<String> SECTIONS = Set.of("failures-and-dead-letters", "during-a-database-outage",
            "health", "when-redis-goes-away", "metrics", "alerts", "when-redis-forgets");

    @Test
    void promtoolChecksTheRules() throws Exception {
        requirePromtool();

        Run check = promtool("check", "rules", OpsFiles.RULES.toString());

        assertThat(check.exitCode()).as(check.output()).isZero();
        assertThat(check.output()).contains("SUCCESS: " + OpsFiles.ruleExpressions().size() + " rules found");
    }

    @Test
    void promtoolUnitTestsPass() throws Exception {
        requirePromtool();

        Run test = promtool("test", "rules", OpsFiles.RULE_TESTS.toString());

        assertThat(test.exitCode()).as(test.output()).isZero();
        assertThat(test.output()).contains("SUCCESS").doesNotContain("FAILED");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyRuleHasASeverityAForWhatToLookAtAndTheSectionToRead() throws IOException {
        Map<String, Object> file = new Yaml().load(Files.readString(OpsFiles.RULES));
        List<Map<String, Object>> rules = ((List<Map<String, Object>>) file.get("groups")).stream()
                .flatMap(group -> ((List<Map<String, Object>>) group.get("rules")).stream()).toList();

        assertThat(rules).hasSize(13);
        for (Map<String, Object> rule : rules) {
            String name = (String) rule.get("alert");
            assertThat(name).startsWith("Seckill");
            assertThat(rule).as(name).containsKey("for");
            assertThat((Map<String, String>) rule.get("labels")).as(name)
                    .containsOnlyKeys("severity").extractingByKey("severity").isIn("page", "ticket");
            Map<String, String> annotations = (Map<String, String>) rule.get("annotations");
            assertThat(annotations).as(name).containsOnlyKeys("summary", "description", "runbook_url");
            assertThat(annotations.get("description")).as(name).contains("Look at");
            assertThat(annotations.get("runbook_url")).as(name).startsWith("docs/operations.md#")
                    .satisfies(url -> assertThat(SECTIONS).contains(url.substring(url.indexOf('#') + 1)));
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyRuleIsUnitTestedFiringAndQuiet() throws IOException {
        Map<String, Object> file = new Yaml().load(Files.readString(OpsFiles.RULE_TESTS));
        List<Map<String, Object>> checks = ((List<Map<String, Object>>) file.get("tests")).stream()
                .flatMap(test -> ((List<Map<String, Object>>) test.get("alert_rule_test")).stream()).toList();

        Set<String> firing = checks.stream().filter(check -> !((List<?>) check.get("exp_alerts")).isEmpty())
                .map(check -> (String) check.get("alertname")).collect(Collectors.toSet());
        Set<String> quiet = checks.stream().filter(check -> ((List<?>) check.get("exp_alerts")).isEmpty())
                .map(check -> (String) check.get("alertname")).collect(Collectors.toSet());
        assertThat(firing).containsExactlyInAnyOrderElementsOf(OpsFiles.ruleExpressions().keySet());
        assertThat(quiet).containsExactlyInAnyOrderElementsOf(OpsFiles.ruleExpressions().keySet());
    }

    static void requirePromtool() {
        boolean installed = Files.isExecutable(PrometheusServer.PROMTOOL);
        if (System.getenv("CI") != null) {
            // In CI a missing promtool is a broken machine (.ci/run installs it), never a reason to skip.
            assertThat(installed).as("%s must be installed (apt-get install prometheus)", PrometheusServer.PROMTOOL)
                    .isTrue();
        }
        Assumptions.assumeTrue(installed, "No " + PrometheusServer.PROMTOOL
                + ": install Debian's prometheus package (apt-get install prometheus) to check the alerting rules");
    }

    private static Run promtool(String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(PrometheusServer.PROMTOOL.toString()));
        command.addAll(List.of(arguments));
        Path output = Files.createTempFile("promtool", ".out");
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile())
                    .start();
            // promtool answers in well under a second; the bound only keeps a hung one from hanging the build.
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish within 60 s");
            }
            return new Run(process.exitValue(), Files.readString(output));
        } finally {
            Files.delete(output);
        }
    }

    private record Run(int exitCode, String output) {
    }
}
