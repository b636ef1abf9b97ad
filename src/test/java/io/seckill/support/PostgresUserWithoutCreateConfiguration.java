package io.seckill.support;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistrar;

/**
 * With {@link PostgresIntegrationTest}: the service connects to its test database as a
 * {@link PostgresUserWithoutCreate} instead of the superuser.
 */
@TestConfiguration(proxyBeanMethods = false)
public class PostgresUserWithoutCreateConfiguration {

    @Bean
    PostgresUserWithoutCreate postgresUserWithoutCreate(PostgresTestDatabase database) {
        return PostgresUserWithoutCreate.on(database);
    }

    @Bean
    DynamicPropertyRegistrar postgresUserWithoutCreateProperties(PostgresUserWithoutCreate user) {
        return registry -> registry.add("spring.datasource.username", user::name);
    }
}
