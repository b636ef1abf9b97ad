package io.seckill.api;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import java.util.concurrent.CompletableFuture;
import org.apache.camel.Processor;
import org.apache.camel.component.platform.http.PlatformHttpEndpoint;
import org.apache.camel.component.platform.http.spi.PlatformHttpConsumer;
import org.apache.camel.component.platform.http.springboot.SpringBootPlatformHttpConsumer;
import org.apache.camel.component.platform.http.springboot.SpringBootPlatformHttpEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * platform-http's Spring Boot engine with each request's route run on the Tomcat thread that took the request, as a
 * plain controller runs. The starter's consumer hands every request to a task pool and answers through Spring MVC's
 * async dispatch (a CompletableFuture): three thread hand-offs and a second pass through the DispatcherServlet and
 * the servlet filters per request, which made the intake half as fast as a plain controller on the same stack.
 */
// The starter's own engine bean steps aside for this one (@ConditionalOnMissingBean), under the name Camel looks up.
@Component("platform-http-engine")
public class InlineHttpEngine extends SpringBootPlatformHttpEngine {

    InlineHttpEngine(@Value("${server.port:8080}") int port) {
        super(port);
    }

    @Override
    public PlatformHttpConsumer createConsumer(PlatformHttpEndpoint endpoint, Processor processor) {
        return new InlineConsumer(endpoint, processor);
    }

    static final class InlineConsumer extends SpringBootPlatformHttpConsumer {

        private static final Logger LOG = LoggerFactory.getLogger(InlineConsumer.class);

        // The starter's task pool is never used: each request runs where it arrived.
        InlineConsumer(PlatformHttpEndpoint endpoint, Processor processor) {
            super(endpoint, processor, Runnable::run);
        }

        /**
         * Runs the route and writes its answer before returning; {@code null} tells Spring MVC the request is
         * handled (no async dispatch follows).
         */
        @Override
        public CompletableFuture<Void> service(HttpServletRequest request, HttpServletResponse response) {
            try {
                handleService(withEmptyBodyTold(request), response);
            } catch (Exception e) {
                // As the starter's consumer does: the route's own error handling answered what it could.
                LOG.warn("Error handling request due to: {}", e.getMessage(), e);
                try {
                    if (!response.isCommitted()) {
                        response.sendError(HttpServletResponse.SC_INTERNAL_SERVER_ERROR);
                    }
                } catch (Exception ignored) {
                    // the client is gone
                }
            }
            return null;
        }

        /**
         * An HTTP/1.x request with neither Content-Length nor Transfer-Encoding has no body (RFC 9112, 6.3), but
         * Camel's binding reads a body of unknown length into a stream cache (a buffer and a copy) to find it empty;
         * told "Content-Length: 0" it reads nothing. An order request has no body, and clients that send it without
         * a Content-Length (curl -X POST, wrk) paid for that cache on every order.
         */
        static HttpServletRequest withEmptyBodyTold(HttpServletRequest request) {
            if (request.getContentLengthLong() >= 0 || request.getHeader("Transfer-Encoding") != null
                    || !request.getProtocol().startsWith("HTTP/1.")) {
                return request;
            }
            return new HttpServletRequestWrapper(request) {
                @Override
                public int getContentLength() {
                    return 0;
                }

                @Override
                public long getContentLengthLong() {
                    return 0;
                }
            };
        }
    }
}
