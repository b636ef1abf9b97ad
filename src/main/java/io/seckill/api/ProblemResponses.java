package io.seckill.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.seckill.config.RedisOutage;
import io.seckill.config.RedisOutageProperties;
import io.seckill.refusal.Refusal;
import java.util.Optional;
import org.apache.camel.Exchange;
import org.apache.camel.ExchangePropertyKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * Turns the exception an API route failed with into a problem+json response, and answers the order intake's
 * refusals, which are no failures ({@link #refuse}), in the same words. A Redis that cannot be used
 * ({@link RedisOutage}) is 503 REDIS_UNAVAILABLE with Retry-After, counted in {@code seckill.redis.unavailable}:
 * "try again in a moment", not "our fault". Anything else that is not a {@link Refusal} is a fault of ours:
 * logged with its stack trace, answered 500 without any internals.
 */
@Component("problemResponses")
public class ProblemResponses {

    private static final Logger log = LoggerFactory.getLogger(ProblemResponses.class);

    private final ObjectWriter problems;
    private final AdmissionMetrics admissions;
    private final RedisOutageProperties outage;
    private final Counter redisRefusals;

    public ProblemResponses(ObjectMapper json, AdmissionMetrics admissions, RedisOutageProperties outage,
            MeterRegistry registry) {
        this.problems = json.writerFor(Problem.class);
        this.admissions = admissions;
        this.outage = outage;
        this.redisRefusals = Counter.builder("seckill.redis.unavailable")
                .description("Requests answered 503 REDIS_UNAVAILABLE because Redis could not be used")
                .register(registry);
    }

    /** The API routes' error handling: the exception the route failed with, answered. */
    public void respond(Exchange exchange) throws JsonProcessingException {
        Throwable failure = exchange.getProperty(Exchange.EXCEPTION_CAUGHT, Throwable.class);
        String path = exchange.getIn().getHeader(Exchange.HTTP_PATH, String.class);
        Problem problem;
        Refusal refusal = Refusal.within(failure);
        Optional<RedisOutage> redisOutage = RedisOutage.behind(failure);
        if (refusal != null) {
            problem = problem(exchange, refusal, path);
        } else if (redisOutage.isPresent()) {
            problem = redisUnavailable(exchange, redisOutage.get(), path);
        } else {
            log.error("Request {} failed", path, failure);
            problem = Problem.of(ProblemCode.INTERNAL_ERROR, "The request could not be processed", path);
        }
        admissions.answered(exchange.getProperty(ExchangePropertyKey.FAILURE_ROUTE_ID, String.class),
                ProblemCode.valueOf(problem.code()));
        write(exchange, problem);
    }

    /**
     * A refusal of an order (sold out, already ordered, rate limited, malformed, ...) answered by the intake's route
     * itself, as the error handling would answer it. It is the answer the route exists to give in a flash crowd, not
     * a failure: Camel's failure counters of {@value AdmissionMetrics#ROUTE_ID} stay for what went wrong, and the
     * refusal costs no exception handling (a quarter of a refusal's CPU in a profile of the sold-out path).
     */
    public void refuse(Exchange exchange, Refusal refusal) throws JsonProcessingException {
        refuse(exchange, refusal, admissions);
    }

    /**
     * @param counting where the refusal is counted: the service's admission metrics, or the self warm-up's, which
     *     nobody exports ({@link OrderPlacement})
     */
    public void refuse(Exchange exchange, Refusal refusal, AdmissionMetrics counting) throws JsonProcessingException {
        counting.answered(AdmissionMetrics.ROUTE_ID, ProblemCode.of(refusal.reason()));
        refuseUncounted(exchange, refusal);
    }

    /** The same answer, counted nowhere: a refusal of another route than the intake's. */
    public void refuseUncounted(Exchange exchange, Refusal refusal) throws JsonProcessingException {
        write(exchange, problem(exchange, refusal, exchange.getIn().getHeader(Exchange.HTTP_PATH, String.class)));
    }

    private static Problem problem(Exchange exchange, Refusal refusal, String path) {
        if (refusal.retryAfterSeconds() != null) {
            exchange.getMessage().setHeader("Retry-After", refusal.retryAfterSeconds());
        }
        if (refusal.challenge() != null) {
            exchange.getMessage().setHeader("WWW-Authenticate", refusal.challenge());
        }
        return problem(refusal, path);
    }

    /** A refusal's body; its Retry-After and WWW-Authenticate, if it has them, are the caller's to answer. */
    static Problem problem(Refusal refusal, String path) {
        return Problem.of(ProblemCode.of(refusal.reason()), refusal.getMessage(), path);
    }

    /**
     * Not logged one by one: during an outage that would be a line per request. The metric counts them, the Redis
     * client logs its reconnection attempts and health {@code redis} says what is wrong. An admission script left
     * without an answer may have taken the unit; the retry asked for is then answered ALREADY_ORDERED by the script
     * itself.
     */
    private Problem redisUnavailable(Exchange exchange, RedisOutage kind, String path) {
        redisRefusals.increment();
        long retryAfter = outage.retryAfterSeconds();
        exchange.getMessage().setHeader("Retry-After", retryAfter);
        String detail = kind == RedisOutage.NO_ANSWER
                ? "Redis did not answer. Try again in " + retryAfter + " s: an order that was taken after all is "
                        + "then answered ALREADY_ORDERED"
                : "Redis cannot be reached at the moment; nothing was done. Try again in " + retryAfter + " s";
        return Problem.of(ProblemCode.REDIS_UNAVAILABLE, detail, path);
    }

    private void write(Exchange exchange, Problem problem) throws JsonProcessingException {
        exchange.getMessage().setHeader(Exchange.HTTP_RESPONSE_CODE, problem.status());
        exchange.getMessage().setHeader(Exchange.CONTENT_TYPE, Problem.MEDIA_TYPE);
        exchange.getMessage().setBody(problems.writeValueAsBytes(problem));
    }
}
