package io.seckill.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The run's correctness checks as the summary's table rows; a run with any failed check exits 1. */
final class CorrectnessChecks {

    private record Check(String description, boolean passed) {
    }

    private final List<Check> checks = new ArrayList<>();

    void check(String description, boolean passed) {
        checks.add(new Check(description, passed));
    }

    int failures() {
        return (int) checks.stream().filter(check -> !check.passed()).count();
    }

    /** "| description | PASS |" (or FAIL) lines. */
    String rows() {
        StringBuilder rows = new StringBuilder();
        for (Check check : checks) {
            rows.append("| ").append(check.description()).append(" | ").append(check.passed() ? "PASS" : "FAIL")
                    .append(" |\n");
        }
        return rows.toString();
    }

    /** True when every FIGURE is a number and their sum is EXPECTED; a missing figure fails the check. */
    static boolean sumIs(double expected, String... figures) {
        double sum = 0;
        for (String figure : figures) {
            Double value = Figures.number(figure);
            if (value == null) {
                return false;
            }
            sum += value;
        }
        return sum == expected;
    }

    /** The answers of a crowd other than the expected ones, as "outcome=count" words ("" when none). */
    static String unexpectedOutcomes(Map<String, String> crowd, String prefix, List<String> expected) {
        StringBuilder other = new StringBuilder();
        crowd.forEach((key, count) -> {
            if (key.startsWith(prefix) && !expected.contains(key.substring(prefix.length()))) {
                other.append(other.isEmpty() ? "" : " ").append(key.substring(prefix.length())).append('=')
                        .append(count);
            }
        });
        return other.toString();
    }
}
