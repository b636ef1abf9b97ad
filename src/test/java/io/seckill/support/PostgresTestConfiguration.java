package io.seckill.support;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.test.context.DynamicPropertyRegistrar;

/** Gives the Spring context a PostgreSQL database of its own, dropped when the context closes. */
@TestConfiguration(proxyBeanMethods = false)
public class PostgresTestConfiguration {

    @Bean(destroyMethod = "close")
    PostgresTestDatabase postgresTestDatabase() {
        return PostgresTestDatabase.create();
    }

    /** The test's database in place of the postgres profile's, with the profile's URL parameters. */
    @Bean
    DynamicPropertyRegistrar postgresTestDatabaseProperties(PostgresTestDatabase database, Environment environment) {
        String url = database.in(environment.getRequiredProperty("spring.datasource.url"));
        return registry -> registry.add("spring.datasource.url", () -> url);
    }
}
