package io.seckill;

import io.seckill.launch.RecommendedJvm;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.web.servlet.error.ErrorMvcAutoConfiguration;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * The flash-sale order pipeline: REST intake on Redis, a stream consumer writing orders to the database.
 *
 * <p>Spring Boot's {@code /error} page is left out: errors the web stack raises itself are answered as
 * problem+json by {@link io.seckill.api.ProblemReportValve}.
 */
@SpringBootApplication(exclude = ErrorMvcAutoConfiguration.class)
@ConfigurationPropertiesScan
public class Application {

    public static void main(String[] args) {
        // java -jar with no JVM option: the service runs in a JVM with the recommended options, and this one waits.
        RecommendedJvm.launchUnlessChosen();
        SpringApplication.run(Application.class, args);
    }
}
