package io.seckill.config;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.springframework.core.io.Resource;
import org.springframework.core.io.ResourceLoader;
import org.springframework.stereotype.Component;

/**
 * The statements of {@code sql/}, one per file, for Java code. The files use camel-sql's {@code :#name}
 * parameters so the routes can run them as they are; Spring's JdbcClient wants {@code :name}.
 */
@Component
public class SqlStatements {

    private final ResourceLoader resources;

    public SqlStatements(ResourceLoader resources) {
        this.resources = resources;
    }

    public String get(String name) {
        Resource resource = resources.getResource("classpath:sql/" + name + ".sql");
        if (!resource.exists()) {
            throw new IllegalStateException("SQL statement sql/" + name + ".sql is missing");
        }
        try {
            return resource.getContentAsString(StandardCharsets.UTF_8).replace(":#", ":");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
