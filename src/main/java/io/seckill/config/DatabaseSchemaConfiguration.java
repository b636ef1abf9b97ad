package io.seckill.config;

import javax.sql.DataSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.sql.init.SqlDataSourceScriptDatabaseInitializer;
import org.springframework.boot.autoconfigure.sql.init.SqlInitializationProperties;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.dao.DataAccessException;

/**
 * {@code sql/schema.sql} at every start, as Spring Boot runs it ({@code spring.sql.init.*}), but tried again when it
 * fails. Instances started together on a fresh database run it at the same moment, and although every statement is
 * IF NOT EXISTS, two sessions creating the same object at once collide: H2 answers "object already exists",
 * PostgreSQL a duplicate key in its catalogue. The instance that lost the race failed to start. The second attempt
 * finds the objects made and passes; a database that is down or a script that is wrong still fails the start, after
 * {@value #ATTEMPTS} attempts.
 */
@Configuration(proxyBeanMethods = false)
@EnableConfigurationProperties(SqlInitializationProperties.class)
public class DatabaseSchemaConfiguration {

    private static final Logger log = LoggerFactory.getLogger(DatabaseSchemaConfiguration.class);
    private static final int ATTEMPTS = 3;
    private static final long PAUSE_MILLIS = 500;

    /** Replaces Boot's own initializer (it backs off when there is one), so it runs where Boot's would. */
    @Bean
    SqlDataSourceScriptDatabaseInitializer schemaInitializer(DataSource dataSource,
            SqlInitializationProperties properties) {
        return new SqlDataSourceScriptDatabaseInitializer(dataSource, properties) {
            @Override
            public boolean initializeDatabase() {
                for (int attempt = 1; ; attempt++) {
                    try {
                        return super.initializeDatabase();
                    } catch (DataAccessException e) {
                        if (attempt == ATTEMPTS) {
                            throw e;
                        }
                        log.warn("Database schema (attempt {} of {}) failed, trying again in {} ms (another instance "
                                + "starting at the same time?): {}", attempt, ATTEMPTS, PAUSE_MILLIS,
                                e.getMostSpecificCause().getMessage());
                        pause();
                    }
                }
            }
        };
    }

    private static void pause() {
        try {
            Thread.sleep(PAUSE_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while initializing the database schema", e);
        }
    }
}
