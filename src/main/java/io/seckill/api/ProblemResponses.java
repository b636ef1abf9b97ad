package io.seckill.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangePropertyKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Turns the exception an API route failed with into a problem+json response. Anything that is not an
 * {@link ApiException} is a fault of ours: logged with its stack trace, answered 500 without any internals.
 */
@Component("problemResponses")
public class ProblemResponses {

    private static final Logger log = LoggerFactory.getLogger(ProblemResponses.class);

    private final ObjectMapper json;
    private final AdmissionMetrics admissions;

    public ProblemResponses(ObjectMapper json, AdmissionMetrics admissions) {
        this.json = json;
        this.admissions = admissions;
    }

    public void respond(Exchange exchange) throws JsonProcessingException {
        Throwable failure = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        String path = exchange.getIn().getHeader(Exchange.HTTP_PATH, String.class);
        Problem problem;
        ApiException api = apiException(failure);
        if (api != null) {
            problem = Problem.of(api.code(), api.getMessage(), path);
            if (api.retryAfterSeconds() != null) {
                exchange.getMessage().setHeader("Retry-After", api.retryAfterSeconds());
            }
        } else {
            log.error("Request {} failed", path, failure);
            problem = Problem.of(ProblemCode.INTERNAL_ERROR, "The request could not be processed", path);
        }
        admissions.answered(exchange.getProperty(ExchangePropertyKey.FAILURE_ROUTE_ID, String.class),
                ProblemCode.valueOf(problem.code()));
        write(exchange, problem);
    }

    /** Camel wraps what a bean throws from an expression (a {@code method:} variable, say): look inside. */
    private static ApiException apiException(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ApiException api) {
                return api;
            }
        }
        return null;
    }

    public void write(Exchange exchange, Problem problem) throws JsonProcessingException {
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, problem.status());
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, Problem.MEDIA_TYPE);
        exchange.getMessage().setBody(json.writeValueAsString(problem));
    }
}
