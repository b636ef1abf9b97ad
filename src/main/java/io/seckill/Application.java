package io.seckill;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.web.servlet.error.ErrorMvcAutoConfiguration;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The flash-sale order pipeline: REST intake on Redis, a stream consumer writing orders to the database.
 *
 * <p>Spring Boot's {@code /error} page is left out: errors the web stack raises itself are answered as
 * problem+json by {@link io.seckill.api.ProblemReportValve}. The recommended JVM options are in {@code jvm.options}:
 * {@code java @jvm.options -jar …} ({@link io.seckill.monitoring.DefaultHeapWarning} says so when they are missing).
 */
@SpringBootApplication(exclude = ErrorMvcAutoConfiguration.class)
@ConfigurationPropertiesScan
public class Application {

    public static void main(String[] args) {
        SpringApplication.run(Application.class, args);
    }
}
