package io.seckill.support;

import io.seckill.Application;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.ActiveProfiles;

/**
 * The whole service over HTTP on a random port, with its own embedded Redis and, through the {@code postgres}
 * profile, a PostgreSQL database of its own on this machine's server. Skipped when no PostgreSQL answers. The
 * context closes after the class, which drops the database.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RequiresPostgres.class)
@CamelSpringBootTest
@SpringBootTest(classes = Application.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles({"test", "postgres"})
@Import({TestSupport.class, PostgresTestConfiguration.class})
@DirtiesContext
public @interface PostgresIntegrationTest {}
