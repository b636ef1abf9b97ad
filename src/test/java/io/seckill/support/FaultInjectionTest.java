package io.seckill.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

/**
 * The whole service (as {@link SeckillIntegrationTest}) on a database that fails on demand ({@link FaultyDatabase}),
 * with its JMX console exported and its redeliveries counted ({@link Redeliveries}). The sweeper gives up after 2 deliveries, so a test sees quickly whether an
 * outage would burn an entry's deliveries. Test classes carrying this share one Spring context; add
 * {@code @DisableJmx(false)} to each (Camel reads that annotation on the class itself only).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SeckillIntegrationTest
@Import({FaultyDatabase.class, Redeliveries.class})
@TestPropertySource(properties = {
        // Exported only here: every cached context of the test JVM shares the platform MBeanServer.
        "spring.jmx.enabled=true",
        "seckill.sweeper.max-deliveries=2"})
public @interface FaultInjectionTest {}
