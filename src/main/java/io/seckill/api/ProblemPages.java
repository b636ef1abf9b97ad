package io.seckill.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.catalina.Pipeline;
import org.apache.catalina.Valve;
import org.apache.catalina.core.StandardHost;
import org.apache.catalina.valves.ErrorReportValve;
import org.springframework.boot.web.embedded.tomcat.TomcatServletWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.core.Ordered;
import org.springframework.stereotype.Component;

/**
 * Puts {@link ProblemReportValve} in the place of Tomcat's HTML error page. Spring Boot installs its own
 * (quiet) ErrorReportValve from a customizer of order 0; this one runs after it and replaces it. Tomcat adds a
 * verbose one of its own at start unless the host's valve class names ours. Spring Boot's {@code /error} page is
 * switched off ({@code Application}), so every {@code sendError} comes straight here.
 */
@Component
class ProblemPages implements WebServerFactoryCustomizer<TomcatServletWebServerFactory>, Ordered {

    private final ObjectMapper json;

    ProblemPages(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public void customize(TomcatServletWebServerFactory factory) {
        factory.addContextCustomizers(context -> {
            StandardHost host = (StandardHost) context.getParent();
            Pipeline pipeline = host.getPipeline();
            for (Valve valve : pipeline.getValves()) {
                if (valve instanceof ErrorReportValve) {
                    pipeline.removeValve(valve);
                }
            }
            host.setErrorReportValveClass(ProblemReportValve.class.getName());
            pipeline.addValve(new ProblemReportValve(json));
        });
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }
}
