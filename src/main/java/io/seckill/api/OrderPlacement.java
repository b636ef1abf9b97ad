package io.seckill.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.seckill.api.ClientAddresses;
import io.seckill.order.OrderAccepted;
import io.seckill.order.OrderAdmission;
import io.seckill.refusal.Refusal;
import io.seckill.refusal.RequestIds;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.camel.Exchange;
import org.apache.camel.Message;
import org.apache.camel.support.DefaultMessage;
import org.springframework.stereotype.Component;

/**
 * The whole of {@code POST /api/vouchers/{id}/orders} in one step of the route: read the ids (a malformed request
 * is answered before anything touches Redis), admit (the buyer's and the client address's rate limits in the same
 * script: 429 before any unit is taken), answer 202 with the order. One bean call instead of five: each step's
 * {@code ${...}} arguments were parsed and converted on every request, a measurable share of the intake's CPU.
 * Every refusal is a {@link Refusal} (stackless), answered here as problem+json ({@link ProblemResponses#refuse}):
 * in a flash crowd nearly every answer is one, and it must cost less than an acceptance, not go through the route's
 * exception handling. Anything else (Redis unusable, a fault) fails the route as before, and its error handling
 * answers it.
 */
@Component("orderPlacement")
public class OrderPlacement {

    private static final String WARM_UP_ADDRESS = "warm-up-";
    /**
     * One in this many of the NOT_STARTED refusals an engine could answer before the route ({@link #remembered}) is
     * left to the route, which answers it the same, from the same memory. A sale's flood before its start is all
     * NOT_STARTED: answered before the route, it never ran the order route's code, and whatever threw C2's code of
     * the route away after the warm-up (the first request of another kind through the same engine, such as the sale's
     * own voucher being created) left the route in the JIT's slower profiling code until a second into the sale. A
     * sixteenth of the flood has it compiled again before the start (bench/runs/2026-11-28-sale-start-deopt.md).
     */
    static final int ROUTED_NOT_STARTED = 16;

    private final RequestIds requestIds;
    private final BuyerIdentity buyers;
    private final ClientAddresses clientAddresses;
    private final OrderAdmission admission;
    private final ProblemResponses problems;
    private final AdmissionMetrics metrics;
    /** The self warm-up's answers are counted here, where nobody reads them ({@link AdmissionMetrics#unexported}). */
    private final AdmissionMetrics warmUpMetrics = AdmissionMetrics.unexported();
    private final ObjectWriter accepted;
    private final WarmUpRequests warmUps;

    public OrderPlacement(RequestIds requestIds, ClientAddresses clientAddresses, OrderAdmission admission,
            ProblemResponses problems, AdmissionMetrics metrics, ObjectMapper json, BuyerIdentity buyers,
            WarmUpRequests warmUps) {
        this.requestIds = requestIds;
        this.warmUps = warmUps;
        this.buyers = buyers;
        this.clientAddresses = clientAddresses;
        this.admission = admission;
        this.problems = problems;
        this.metrics = metrics;
        this.accepted = json.writerFor(OrderAccepted.class);
    }

    /**
     * Camel completes the exchange when the returned stage completes: the request's thread does not wait for Redis
     * (on an asynchronous HTTP engine no thread does).
     */
    public CompletionStage<Void> place(Exchange exchange) {
        CompletionStage<OrderAccepted> admitted;
        AdmissionMetrics counting = metrics;
        try {
            Message in = exchange.getIn();
            long voucherId = requestIds.positive(in.getHeader("id", String.class), "voucher id");
            long userId = buyers.of(exchange);
            boolean warmUp = warmUps.isWarmUp(exchange, voucherId);
            // Decided here, where the flood of refusals before a sale passes too, and not where the 202 is written:
            // a branch only a buyer's acceptance takes would be met first at the sale's start.
            counting = warmUp ? warmUpMetrics : metrics;
            // The warm-up's requests all come from the loopback: each of its buyers has an address bucket of its own
            // in the warm-up's keys, so the per-address limit lets the warm-up reach the rate a crowd would.
            String address = warmUp ? WARM_UP_ADDRESS + (userId & 0xff) : clientAddresses.of(exchange);
            admitted = admission.admit(voucherId, userId, address, warmUp);
        } catch (Refusal refusal) {
            admitted = CompletableFuture.failedFuture(refusal);
        }
        AdmissionMetrics counted = counting;
        return admitted.handle((order, failure) -> {
            if (failure == null) {
                counted.accepted();
                exchange.setMessage(acceptedAnswer(exchange, order));
                return null;
            }
            Refusal refusal = Refusal.within(failure);
            if (refusal == null) {
                throw failure instanceof CompletionException wrapped ? wrapped : new CompletionException(failure);
            }
            refuse(exchange, refusal, counted);
            return null;
        });
    }

    /**
     * The answer this instance remembers for an order ({@code POST path}, the ids read as {@link #place} reads them),
     * counted as {@link #place} counts its answers; null when only the admission script can tell, and for one
     * NOT_STARTED in {@value #ROUTED_NOT_STARTED}. For an engine that answers it before the route runs
     * ({@link NettyRememberedRefusals}): what the route would answer, without it.
     */
    Problem remembered(long voucherId, long userId, boolean warmUp, String path) {
        if (ThreadLocalRandom.current().nextInt(ROUTED_NOT_STARTED) == 0
                && admission.rememberedNotStarted(voucherId, userId)) {
            return null;
        }
        Refusal refusal = admission.remembered(voucherId, userId, warmUp);
        if (refusal == null) {
            return null;
        }
        (warmUp ? warmUpMetrics : metrics).answered(AdmissionMetrics.ROUTE_ID, ProblemCode.of(refusal.reason()));
        return ProblemResponses.problem(refusal, path);
    }

    /**
     * The 202 on a message of its own, holding the answer's headers only. On the request's message it sat beside the
     * request's score of headers (Netty's, Camel's, the path's), each of which Camel copied into the exchange's out
     * message at the route's end and the engine's binding looked at again to drop it: a few per cent of the saturated
     * intake's CPU (bench/runs/2026-11-29-read-completions.md). A request that asked to close its connection is still
     * answered so: Camel keeps that on the exchange, not in the message's headers.
     */
    private Message acceptedAnswer(Exchange exchange, OrderAccepted order) {
        Message answer = new DefaultMessage(exchange);
        answer.setHeader(Exchange.HTTP_RESPONSE_CODE, 202);
        answer.setHeader(Exchange.CONTENT_TYPE, "application/json");
        answer.setBody(json(order));
        return answer;
    }

    private void refuse(Exchange exchange, Refusal refusal, AdmissionMetrics counting) {
        try {
            problems.refuse(exchange, refusal, counting);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }

    private byte[] json(OrderAccepted order) {
        try {
            return accepted.writeValueAsBytes(order);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
