package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The sale view on a clock of the test's own: what it repeats of Redis's answers, for how long, and what makes it
 * forget. Every refusal it gives must be one the script would give at that moment.
 */
class SaleViewTests {

    private static final long VOUCHER = 7;
    private static final long MILLI = 1_000_000;

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final List<CompletableFuture<long[]>> copies = new ArrayList<>();

    private SaleView view(boolean enabled, int maxBuyers) {
        SaleViewProperties properties = new SaleViewProperties(enabled, Duration.ofSeconds(1),
                Duration.ofMillis(50), maxBuyers, "seckill:sale-view");
        return new SaleView(properties, voucherId -> {
            CompletableFuture<long[]> copy = new CompletableFuture<>();
            copies.add(copy);
            return copy;
        }, nanos::get);
    }

    @Test
    void notStartedIsRepeatedUntilTheStartByRedisClockLessTheMargin() {
        SaleView view = view(true, 100);
        long redisNow = 5_000_000;
        view.notStarted(view.ticket(VOUCHER), redisNow + 300, redisNow);

        assertThat(view.refusal(VOUCHER, 1)).isEqualTo(AdmissionOutcome.NOT_STARTED);
        nanos.addAndGet(249 * MILLI);
        assertThat(view.refusal(VOUCHER, 1)).as("300 ms - 50 ms margin: not yet").isEqualTo(
                AdmissionOutcome.NOT_STARTED);
        nanos.addAndGet(2 * MILLI);
        assertThat(view.refusal(VOUCHER, 1)).as("past start - margin: the script decides").isNull();
    }

    @Test
    void aRefusalIsRepeatedForTheTtlAtMost() {
        SaleView view = view(true, 100);
        view.ended(view.ticket(VOUCHER));

        nanos.addAndGet(999 * MILLI);
        assertThat(view.refusal(VOUCHER, 1)).isEqualTo(AdmissionOutcome.ENDED);
        nanos.addAndGet(2 * MILLI);
        assertThat(view.refusal(VOUCHER, 1)).isNull();
    }

    @Test
    void soldOutIsRepeatedOnceTheBuyersAreCopiedAndWinnersHearAlreadyOrdered() {
        SaleView view = view(true, 100);
        view.soldOut(view.ticket(VOUCHER));
        assertThat(view.refusal(VOUCHER, 1)).as("the copy is on its way: the script decides").isNull();

        copies.get(0).complete(new long[] {42, 3});

        assertThat(view.refusal(VOUCHER, 1)).isEqualTo(AdmissionOutcome.SOLD_OUT);
        assertThat(view.refusal(VOUCHER, 42)).isEqualTo(AdmissionOutcome.ALREADY_ORDERED);
        assertThat(view.refusal(VOUCHER, 3)).isEqualTo(AdmissionOutcome.ALREADY_ORDERED);
        // After the ttl the script is asked again; sold out still and no message since: the copy serves on.
        nanos.addAndGet(1_001 * MILLI);
        assertThat(view.refusal(VOUCHER, 1)).isNull();
        view.soldOut(view.ticket(VOUCHER));
        assertThat(copies).hasSize(1);
        assertThat(view.refusal(VOUCHER, 1)).isEqualTo(AdmissionOutcome.SOLD_OUT);
    }

    @Test
    void aVoucherWithTooManyBuyersToCopyGoesOnToRedis() {
        SaleView view = view(true, 100);
        view.soldOut(view.ticket(VOUCHER));
        copies.get(0).complete(null);

        assertThat(view.refusal(VOUCHER, 1)).isNull();
        view.soldOut(view.ticket(VOUCHER));
        assertThat(copies).as("not asked again at every refusal").hasSize(1);
    }

    @Test
    void aUnitComingBackIsForgottenAtOnce() {
        SaleView view = view(true, 100);
        view.soldOut(view.ticket(VOUCHER));
        copies.get(0).complete(new long[] {42});
        assertThat(view.refusal(VOUCHER, 1)).isEqualTo(AdmissionOutcome.SOLD_OUT);

        view.changed(VOUCHER);

        assertThat(view.refusal(VOUCHER, 1)).isNull();
        assertThat(view.refusal(VOUCHER, 42)).isNull();
        view.soldOut(view.ticket(VOUCHER));
        assertThat(copies).as("the buyers are copied anew").hasSize(2);
    }

    @Test
    void anAnswerThatLeftRedisBeforeAMessageIsNotRemembered() {
        SaleView view = view(true, 100);
        SaleView.Ticket sentBefore = view.ticket(VOUCHER);
        view.changed(VOUCHER);

        view.soldOut(sentBefore);
        view.ended(sentBefore);
        view.notStarted(sentBefore, Long.MAX_VALUE, 0);

        assertThat(view.refusal(VOUCHER, 1)).isNull();
    }

    @Test
    void aCopyFinishingAfterAMessageIsNotUsed() {
        SaleView view = view(true, 100);
        view.soldOut(view.ticket(VOUCHER));
        view.changed(VOUCHER);

        copies.get(0).complete(new long[] {42});

        assertThat(view.refusal(VOUCHER, 1)).isNull();
    }

    @Test
    void switchedOffItRemembersNothing() {
        SaleView view = view(false, 100);
        view.ended(view.ticket(VOUCHER));
        view.soldOut(view.ticket(VOUCHER));

        assertThat(view.refusal(VOUCHER, 1)).isNull();
        assertThat(copies).isEmpty();
    }
}
