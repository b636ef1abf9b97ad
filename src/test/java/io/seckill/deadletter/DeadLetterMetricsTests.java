package io.seckill.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

class DeadLetterMetricsTests {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    @Test
    void everyReasonIsExportedAtZeroFromTheStart() {
        // Nothing but the registry is used until an entry is moved.
        new DeadLetters(null, null, null, null, registry);

        for (String reason : new String[] {"OVERSOLD", "DUPLICATE_BUYER", "ORDER_ID_CONFLICT", "UNKNOWN_VOUCHER",
                "OTHER"}) {
            assertThat(registry.get("seckill.dead.letters.added").tag("reason", reason).counter().count())
                    .as(reason).isZero();
        }
    }
}
