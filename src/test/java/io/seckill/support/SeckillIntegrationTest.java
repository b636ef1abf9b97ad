package io.seckill.support;

import io.seckill.Application;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.apache.camel.test.spring.junit5.CamelSpringBootTest;
import org.springframework.boot.test.autoconfigure.actuate.observability.AutoConfigureObservability;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;

/**
 * The whole service over HTTP on a random port, with a real embedded Redis and a real H2 database of its own
 * (profile {@code test}), its metrics exported as in production ({@code /actuator/prometheus}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@CamelSpringBootTest
@SpringBootTest(classes = Application.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles("test")
@Import(TestSupport.class)
@AutoConfigureObservability(tracing = false)
public @interface SeckillIntegrationTest {}
