package io.seckill.ops;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The metric names a PromQL expression reads. What is left once the parts that cannot hold one are cut out:
 * string literals (label values, Grafana's {@code $instance}), label matchers {@code {…}}, ranges {@code […]}
 * (Grafana's {@code $__rate_interval}) and the label lists of {@code by}, {@code without}, {@code on},
 * {@code ignoring}, {@code group_left} and {@code group_right}; of the identifiers that remain, a function is one
 * followed by {@code (}, and the keywords are PromQL's own. Enough for the expressions of ops/, not a parser:
 * {@link PromqlNamesTests} pins it down on their shapes.
 */
final class PromqlNames {

    private static final Pattern STRINGS = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");
    private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
    private static final Pattern RANGES = Pattern.compile("\\[[^]]*]");
    private static final Pattern LABEL_LISTS = Pattern.compile(
            "\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)", Pattern.CASE_INSENSITIVE);
    /** An identifier not glued to a number, a template variable or another name ({@code 5m}, {@code $value}). */
    private static final Pattern IDENTIFIER = Pattern.compile("(?<![\\w.:$])[A-Za-z_:][\\w:]*");
    private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without",
            "on", "ignoring", "group_left", "group_right", "atan2", "inf", "nan");

    private PromqlNames() {
    }

    static Set<String> of(String expr) {
        String text = STRINGS.matcher(expr).replaceAll(" ");
        text = MATCHERS.matcher(text).replaceAll(" ");
        text = RANGES.matcher(text).replaceAll(" ");
        text = LABEL_LISTS.matcher(text).replaceAll(" ");
        Set<String> names = new LinkedHashSet<>();
        Matcher identifier = IDENTIFIER.matcher(text);
        while (identifier.find()) {
            String name = identifier.group();
            if (KEYWORDS.contains(name.toLowerCase(Locale.ROOT)) || isCall(text, identifier.end())) {
                continue;
            }
            names.add(name);
        }
        return names;
    }

    private static boolean isCall(String text, int end) {
        int next = end;
        while (next < text.length() && Character.isWhitespace(text.charAt(next))) {
            next++;
        }
        return next < text.length() && text.charAt(next) == '(';
    }
}
