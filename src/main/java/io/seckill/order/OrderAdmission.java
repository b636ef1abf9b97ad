package io.seckill.order;

import io.seckill.api.AdmissionMetrics;
import io.seckill.api.ApiException;
import io.seckill.api.ProblemCode;
import io.seckill.ratelimit.RateLimits;
import java.util.concurrent.CompletableFuture;
import org.springframework.stereotype.Component;

/**
 * Admits one buyer's order for one voucher: a refusal this instance remembers Redis giving is answered at once
 * ({@link SaleView}); otherwise it runs the admission script (rate limits included), names the outcome and
 * counts an acceptance (refusals are counted where they are answered, {@link AdmissionMetrics}). The ids were
 * checked by the route (io.seckill.api.RequestIds) before the script.
 */
@Component("orderAdmission")
public class OrderAdmission {

    private final OrderIdGenerator orderIds;
    private final AdmitOrderScript admitOrder;
    private final RateLimits rateLimits;
    private final AdmissionMetrics metrics;
    private final SaleStateRecovery redisState;
    private final SaleView saleView;
    private final long rebuildingRetryAfterSeconds;

    public OrderAdmission(OrderIdGenerator orderIds, AdmitOrderScript admitOrder, RateLimits rateLimits,
            AdmissionMetrics metrics, SaleStateRecovery redisState, SaleView saleView) {
        this.orderIds = orderIds;
        this.saleView = saleView;
        this.admitOrder = admitOrder;
        this.rateLimits = rateLimits;
        this.metrics = metrics;
        this.redisState = redisState;
        this.rebuildingRetryAfterSeconds = Math.max(1, redisState.retryAfter().toSeconds());
    }

    /**
     * Completes on the Redis client's I/O thread, with the order or with the {@link ApiException} that refuses it (a
     * Redis failure as Spring's exception): no thread waits for Redis.
     */
    public CompletableFuture<OrderAccepted> admit(long voucherId, long userId, String clientAddress) {
        return admit(voucherId, userId, clientAddress, false);
    }

    /**
     * The same on the warm-up's keys ({@code warmUp}, io.seckill.api.WarmUpRequests), counted in no metric: the
     * path a buyer's order takes, compiled before the first buyer's.
     */
    public CompletableFuture<OrderAccepted> admit(long voucherId, long userId, String clientAddress, boolean warmUp) {
        AdmissionOutcome remembered = saleView.refusal(voucherId, userId);
        if (remembered != null) {
            if (!warmUp) {
                metrics.remembered();
            }
            return CompletableFuture.failedFuture(refusal(remembered, voucherId));
        }
        SaleView.Ticket ticket = saleView.ticket(voucherId);
        long orderId = orderIds.next();
        return admitOrder.admit(voucherId, userId, orderId, clientAddress, warmUp).thenCompose(answer -> {
            AdmissionOutcome outcome = answer.outcome();
            remember(ticket, answer);
            if (outcome == AdmissionOutcome.BUYER_RATE_LIMITED) {
                throw rateLimits.buyerRefusal(userId, answer.waitMicros());
            }
            if (outcome == AdmissionOutcome.ADDRESS_RATE_LIMITED) {
                throw rateLimits.addressRefusal(clientAddress, answer.waitMicros());
            }
            if (outcome == AdmissionOutcome.REBUILDING) {
                throw rebuilding(voucherId);
            }
            // A voucher unknown to a shard that lost its marker may be one Redis forgot: the next check rebuilds it.
            if (outcome == AdmissionOutcome.VOUCHER_NOT_FOUND) {
                return redisState.forgotten(voucherId).thenApply(forgotten -> {
                    throw forgotten ? rebuilding(voucherId) : refusal(outcome, voucherId);
                });
            }
            if (outcome != AdmissionOutcome.ACCEPTED) {
                throw refusal(outcome, voucherId);
            }
            if (!warmUp) {
                metrics.accepted();
            }
            return CompletableFuture.completedFuture(OrderAccepted.queued(orderId, voucherId, userId));
        });
    }

    private void remember(SaleView.Ticket ticket, AdmitOrderScript.Answer answer) {
        switch (answer.outcome()) {
            case NOT_STARTED -> saleView.notStarted(ticket, answer.beginAt(), answer.redisNow());
            case ENDED -> saleView.ended(ticket);
            case SOLD_OUT -> saleView.soldOut(ticket);
            default -> { }
        }
    }

    private ApiException rebuilding(long voucherId) {
        return new ApiException(ProblemCode.VOUCHER_REBUILDING, AdmissionOutcome.REBUILDING.detail(voucherId),
                rebuildingRetryAfterSeconds);
    }

    private static ApiException refusal(AdmissionOutcome outcome, long voucherId) {
        return new ApiException(outcome.problem(), outcome.detail(voucherId));
    }
}
