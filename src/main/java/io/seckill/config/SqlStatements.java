package io.seckill.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import org.springframework.stereotype.Component;

/**
 * The statements of {@code sql/}, one per file, for Java code. The files use camel-sql's {@code :#name}
 * parameters so the routes can run them as they are; Spring's JdbcClient wants {@code :name}.
 */
@Component
public class SqlStatements {

    private static final Pattern NAMED = Pattern.compile(":#(\\w+)");
    private static final Pattern COMMENT_LINE = Pattern.compile("(?m)^\\s*--.*(\\R|$)");

    private final ResourceLoader resources;

    public SqlStatements(ResourceLoader resources) {
        this.resources = resources;
    }

    public String get(String name) {
        return text(name).replace(":#", ":");
    }

    /**
     * A statement with {@code ?} in place of its named parameters, parsed once, for code that binds many rows of
     * it (a JDBC batch) without parsing or a map per row. Its comment lines are left out: they would travel with
     * every execution and fill every error message.
     */
    public Positional positional(String name) {
        Matcher named = NAMED.matcher(COMMENT_LINE.matcher(text(name)).replaceAll("").strip());
        StringBuilder sql = new StringBuilder();
        List<String> parameters = new ArrayList<>();
        while (named.find()) {
            parameters.add(named.group(1));
            named.appendReplacement(sql, "?");
        }
        named.appendTail(sql);
        return new Positional(sql.toString(), List.copyOf(parameters));
    }

    /** @param parameters the name of each {@code ?}, in order (a name used twice appears twice) */
    public record Positional(String sql, List<String> parameters) {}

    private String text(String name) {
        Resource resource = resources.getResource("classpath:sql/" + name + ".sql");
        if (!resource.exists()) {
            throw new IllegalStateException("SQL statement sql/" + name + ".sql is missing");
        }
        try {
            return resource.getContentAsString(StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
