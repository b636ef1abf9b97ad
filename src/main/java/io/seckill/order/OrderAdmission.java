package io.seckill.order;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.seckill.ratelimit.RateLimits;
import io.seckill.redis.BucketCounts;
import io.seckill.redis.RedisKeys;
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
 *
 * <p>A voucher whose stock is split into buckets (docs/buckets.md) takes each order in the buyer's home bucket; when
 * that one is empty, units move to it from another ({@link StockTransfers}) and the order is tried again. It is
 * SOLD_OUT once no bucket holds a unit.
 */
@Component("orderAdmission")
public class OrderAdmission {

    /**
     * Tries of one request: learning the bucket count, and each refill of an empty home bucket, take one. A crowd
     * on the last units of a voucher may take a refilled bucket's units before the buyer's try; each later try
     * takes no rate-limit token.
     */
    private static final int MAX_ATTEMPTS = 16;

    private final OrderIdGenerator orderIds;
    private final AdmitOrderScript admitOrder;
    private final RateLimits rateLimits;
    private final Counter rememberedRefusals;
    private final SaleStateRecovery redisState;
    private final SaleView saleView;
    private final long rebuildingRetryAfterSeconds;
    private final long replicaRetryAfterSeconds;
    private final BucketCounts bucketCounts;
    private final StockTransfers transfers;
    private final RedisKeys keys;

    public OrderAdmission(OrderIdGenerator orderIds, AdmitOrderScript admitOrder, RateLimits rateLimits,
            MeterRegistry registry, SaleStateRecovery redisState, SaleView saleView, ReplicaAckProperties replicas,
            BucketCounts bucketCounts, StockTransfers transfers, RedisKeys keys) {
        this.orderIds = orderIds;
        this.bucketCounts = bucketCounts;
        this.transfers = transfers;
        this.keys = keys;
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
        Refusal remembered = remembered(voucherId, userId, warmUp);
        if (remembered != null) {
            return CompletableFuture.failedFuture(remembered);
        }
        SaleView.Ticket ticket = saleView.ticket(voucherId);
        return attempt(new Request(voucherId, userId, orderIds.next(), clientAddress, warmUp, ticket),
                MAX_ATTEMPTS, false);
    }

    /** Whether this instance remembers that the voucher's sale has not started yet: a look, counted nowhere. */
    public boolean rememberedNotStarted(long voucherId, long userId) {
        return saleView.refusal(voucherId, userId) == AdmissionOutcome.NOT_STARTED;
    }

    /**
     * The refusal this instance remembers for the order ({@link SaleView}), counted in
     * {@code seckill.admissions.remembered} unless it is the warm-up's; null when only the script can tell.
     */
    public Refusal remembered(long voucherId, long userId, boolean warmUp) {
        AdmissionOutcome remembered = saleView.refusal(voucherId, userId);
        if (remembered == null) {
            return null;
        }
        if (!warmUp) {
            rememberedRefusals.increment();
        }
        return refusal(remembered, voucherId);
    }

    /** One order request through its attempts: the same orderId each time, until one is answered. */
    private record Request(long voucherId, long userId, long orderId, String clientAddress, boolean warmUp,
            SaleView.Ticket ticket) {}

    /** @param charged an earlier try took the request's rate-limit tokens */
    private CompletableFuture<OrderAccepted> attempt(Request request, int attemptsLeft, boolean charged) {
        long voucherId = request.voucherId();
        // The warm-up's vouchers have one bucket, whatever the user's vouchers of the same ids have.
        int buckets = request.warmUp() ? 1 : bucketCounts.of(voucherId);
        return admitOrder.admit(voucherId, request.userId(), request.orderId(), request.clientAddress(), buckets,
                charged, request.warmUp()).thenCompose(answer -> {
                    AdmissionOutcome outcome = answer.outcome();
                    if (outcome == AdmissionOutcome.OTHER_BUCKETS && attemptsLeft > 1) {
                        // Answered before any token was taken.
                        bucketCounts.learn(voucherId, answer.buckets());
                        return attempt(request, attemptsLeft - 1, charged);
                    }
                    if (outcome == AdmissionOutcome.SOLD_OUT && buckets > 1) {
                        return refill(request, buckets, attemptsLeft);
                    }
                    return answered(request, answer, buckets);
                });
    }

    /** The buyer's home bucket was empty: units move to it from another bucket, then the order is tried again. */
    private CompletableFuture<OrderAccepted> refill(Request request, int buckets, int attemptsLeft) {
        long voucherId = request.voucherId();
        return transfers.refill(voucherId, buckets, RedisKeys.homeBucket(request.userId(), buckets))
                .thenCompose(refill -> switch (refill) {
                    case MOVED -> attemptsLeft > 1 ? attempt(request, attemptsLeft - 1, true)
                            : CompletableFuture.failedFuture(stockMoving(voucherId));
                    case EMPTY -> {
                        saleView.soldOut(request.ticket());
                        yield CompletableFuture.failedFuture(refusal(AdmissionOutcome.SOLD_OUT, voucherId));
                    }
                    case REBUILDING -> CompletableFuture.failedFuture(rebuilding(voucherId));
                });
    }

    private CompletableFuture<OrderAccepted> answered(Request request, AdmitOrderScript.Answer answer, int buckets) {
        long voucherId = request.voucherId();
        long userId = request.userId();
        AdmissionOutcome outcome = answer.outcome();
        remember(request.ticket(), answer);
        if (outcome == AdmissionOutcome.BUYER_RATE_LIMITED) {
            throw rateLimits.buyerRefusal(userId, answer.waitMicros());
        }
        if (outcome == AdmissionOutcome.ADDRESS_RATE_LIMITED) {
            throw rateLimits.addressRefusal(request.clientAddress(), answer.waitMicros());
        }
        if (outcome == AdmissionOutcome.REBUILDING) {
            throw rebuilding(voucherId);
        }
        // A voucher unknown to a shard that lost its marker may be one Redis forgot: the next check rebuilds it.
        if (outcome == AdmissionOutcome.VOUCHER_NOT_FOUND) {
            return redisState.forgotten(keys.homeShard(voucherId, userId, buckets)).thenApply(forgotten -> {
                throw forgotten ? rebuilding(voucherId) : refusal(outcome, voucherId);
            });
        }
        if (outcome == AdmissionOutcome.OTHER_BUCKETS) {
            throw stockMoving(voucherId);
        }
        if (outcome != AdmissionOutcome.ACCEPTED) {
            throw refusal(outcome, voucherId);
        }
        if (!answer.replicated()) {
            throw notReplicated(request.orderId());
        }
        return CompletableFuture.completedFuture(OrderAccepted.queued(request.orderId(), voucherId, userId));
    }

    private void remember(SaleView.Ticket ticket, AdmitOrderScript.Answer answer) {
        switch (answer.outcome()) {
            case NOT_STARTED -> saleView.notStarted(ticket, answer.beginAt(), answer.redisNow());
            case ENDED -> saleView.ended(ticket);
            // Of a voucher in one bucket only: of several, once every bucket is empty (refill).
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

    /**
     * Units kept moving away from the buyer's home bucket as fast as they came (a crowd on the last units of a
     * voucher in several buckets): the order is neither refused nor taken; the buyer tries again.
     */
    private Refusal stockMoving(long voucherId) {
        return new Refusal(Reason.REDIS_UNAVAILABLE, "The last units of voucher " + voucherId + " are moving between"
                + " its stock buckets; try again in 1 s", 1L);
    }

    private Refusal rebuilding(long voucherId) {
        return new Refusal(Reason.VOUCHER_REBUILDING, AdmissionOutcome.REBUILDING.detail(voucherId),
                rebuildingRetryAfterSeconds);
    }

    private static Refusal refusal(AdmissionOutcome outcome, long voucherId) {
        return new Refusal(outcome.reason(), outcome.detail(voucherId));
    }
}
