package io.seckill.support;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.test.context.TestPropertySource;

/**
 * The test's service serves its API on the netty-http engine (seckill.api.engine); Tomcat, with the actuator and
 * the console, on a free port of its own. {@link ApiClient} sends each path where it is served.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@TestPropertySource(properties = {"seckill.api.engine=netty-http", "seckill.api.management-port=0"})
public @interface OnNettyEngine {
}
