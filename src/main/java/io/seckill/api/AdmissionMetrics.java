package io.seckill.api;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.springframework.stereotype.Component;

/**
 * Counter {@code seckill.admissions}, tag {@code outcome}: every answer to an order, once. The intake ({@link OrderPlacement}) counts
 * the orders it accepted; every refusal, whether the admission script decided it (sold_out, already_ordered,
 * not_started, ended, voucher_not_found) or a step before it (bad_request, rate_limited), reaches the buyer as a
 * problem of the route {@value #ROUTE_ID} and is counted by {@link ProblemResponses}, by its code (whether the route
 * answered it itself or its error handling did).
 */
@Component
public class AdmissionMetrics {

    /** The route that answers {@code POST /api/vouchers/{id}/orders} ({@code routes/order-api.camel.yaml}). */
    public static final String ROUTE_ID = "place-order";

    private static final String NAME = "seckill.admissions";
    private static final String DESCRIPTION = "Answers to orders, by outcome";
    /**
     * Exported from the start at 0, so alerts on their rates work before the first case (a series born at 1 shows no
     * increase to rate()): internal_error is what ops/prometheus/seckill-alerts.yaml's SeckillAdmissionErrors watches.
     */
    private static final List<ProblemCode> EXPECTED = List.of(ProblemCode.BAD_REQUEST, ProblemCode.VOUCHER_NOT_FOUND,
            ProblemCode.NOT_STARTED, ProblemCode.ENDED, ProblemCode.SOLD_OUT, ProblemCode.ALREADY_ORDERED,
            ProblemCode.RATE_LIMITED, ProblemCode.INTERNAL_ERROR);

    private final MeterRegistry registry;
    private final Counter accepted;
    /** Read on every refusal, from many threads at once: no lock once a code's counter exists. */
    private final Map<ProblemCode, Counter> refused = new ConcurrentHashMap<>();

    public AdmissionMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.accepted = counter("accepted");
        EXPECTED.forEach(this::refusedCounter);
    }

    /**
     * The same counters on a registry of their own, which nothing exports: where the self warm-up's answers are
     * counted ({@link OrderPlacement}). Counting them by the same code as a buyer's, on the same kind of meters, leaves
     * the compiled intake no branch that a buyer's first 202 would be the first to take (a deoptimization of the whole
     * request path at the start of a sale: docs/performance.md, "the first seconds of a sale").
     */
    static AdmissionMetrics unexported() {
        return new AdmissionMetrics(new PrometheusMeterRegistry(PrometheusConfig.DEFAULT));
    }

    public void accepted() {
        accepted.increment();
    }

    /** A problem answered by an API route; counted when that route is the order intake. */
    public void answered(String routeId, ProblemCode code) {
        if (ROUTE_ID.equals(routeId)) {
            refusedCounter(code).increment();
        }
    }

    private Counter refusedCounter(ProblemCode code) {
        return refused.computeIfAbsent(code, c -> counter(c.name().toLowerCase(Locale.ROOT)));
    }

    private Counter counter(String outcome) {
        return Counter.builder(NAME).description(DESCRIPTION).tag("outcome", outcome).register(registry);
    }
}
