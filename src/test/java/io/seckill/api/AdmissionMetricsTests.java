package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class AdmissionMetricsTests {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final AdmissionMetrics metrics = new AdmissionMetrics(registry);

    @Test
    void everyExpectedOutcomeIsExportedAtZeroFromTheStart() {
        for (String outcome : new String[] {"accepted", "bad_request", "voucher_not_found", "not_started", "ended",
                "sold_out", "already_ordered", "rate_limited", "internal_error"}) {
            assertThat(count(outcome)).as(outcome).isZero();
        }
    }

    @Test
    void problemsOfTheOrderRouteAreCountedByCodeOthersAreNot() {
        metrics.accepted();
        metrics.answered("place-order", ProblemCode.RATE_LIMITED);
        metrics.answered("place-order", ProblemCode.RATE_LIMITED);
        metrics.answered("place-order", ProblemCode.INTERNAL_ERROR);
        metrics.answered("create-voucher", ProblemCode.BAD_REQUEST);
        metrics.answered(null, ProblemCode.BAD_REQUEST);

        assertThat(count("accepted")).isEqualTo(1);
        assertThat(count("rate_limited")).isEqualTo(2);
        assertThat(count("internal_error")).isEqualTo(1);
        assertThat(count("bad_request")).isZero();
    }

    private double count(String outcome) {
        return registry.get("seckill.admissions").tag("outcome", outcome).counter().count();
    }
}
