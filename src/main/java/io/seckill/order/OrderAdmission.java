package io.seckill.order;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.seckill.ratelimit.RateLimits;
import io.seckill.redis.ReplicaAckProperties;
import io.seckill.refusal.Reason;
import io.seckill.refusal.Refusal;
import java.util.concurrent.CompletableFuture;
import org.springframework.stereotype.Component;

/**
 * Admits one buyer's order for one voucher: a refusal this instance remembers Redis giving is answered at once
 * ({@link SaleView}); otherwise it runs the admission script (rate limits included), names the outcome and
 * counts the refusals it answered from memory (every answer, accepted or refused, is counted by outcome where it is
 * answered: io.seckill.api.AdmissionMetrics). The ids were checked (io.seckill.refusal.RequestIds) before.
 */
@Component("orderAdmission")
public class OrderAdmission {

    private final OrderIdGenerator orderIds;
    private final AdmitOrderScript admitOrder;
    private final RateLimits rateLimits;
    private final Counter rememberedRefusals;
    private final SaleStateRecovery redisState;
    private final SaleView saleView;
    private final long rebuildingRetryAfterSeconds;
    private final long replicaRetryAfterSeconds;

    public OrderAdmission(OrderIdGenerator orderIds, AdmitOrderScript admitOrder, RateLimits rateLimits,
            MeterRegistry registry, SaleStateRecovery redisState, SaleView saleView, ReplicaAckProperties replicas) {
        this.orderIds = orderIds;
        this.saleView = saleView;
        this.admitOrder = admitOrder;
        this.rateLimits = rateLimits;
        this.rememberedRefusals = Counter.builder("seckill.admissions.remembered")
                .description("Refusals answered from this instance's memory of Redis's answers, without a round trip"
                        + " (counted by outcome in seckill.admissions as well)")
                .register(registry);
        this.redisState = redisState;
        this.rebuildingRetryAfterSeconds = Math.max(1, redisState.retryAfter().toSeconds());
        this.replicaRetryAfterSeconds = Math.max(1, replicas.replicaAckTimeout().toSeconds());
    }

    /**
     * Completes on the Redis client's I/O thread, with the order or with the {@link Refusal} that refuses it (a
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
                rememberedRefusals.increment();
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
            if (!answer.replicated()) {
                throw notReplicated(orderId);
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

    /**
     * The order was taken, but fewer replicas than asked acknowledged it in time: a failover now could lose it. It
     * stands if Redis keeps it; the buyer tries again and hears ALREADY_ORDERED then, or a 202.
     */
    private Refusal notReplicated(long orderId) {
        return new Refusal(Reason.REDIS_UNAVAILABLE, "Order " + orderId + " was taken, but Redis's replicas did not "
                + "confirm it in time; try again in " + replicaRetryAfterSeconds + " s: if it stands, you are told "
                + "ALREADY_ORDERED", replicaRetryAfterSeconds);
    }

    private Refusal rebuilding(long voucherId) {
        return new Refusal(Reason.VOUCHER_REBUILDING, AdmissionOutcome.REBUILDING.detail(voucherId),
                rebuildingRetryAfterSeconds);
    }

    private static Refusal refusal(AdmissionOutcome outcome, long voucherId) {
        return new Refusal(outcome.reason(), outcome.detail(voucherId));
    }
}
