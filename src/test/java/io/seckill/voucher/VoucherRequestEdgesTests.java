package io.seckill.voucher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.seckill.refusal.Refusal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** The edges of a valid voucher body: what is just allowed is taken, what is just beyond is refused. */
class VoucherRequestEdgesTests {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00.123Z");

    private final VoucherRequests requests = new VoucherRequests(new ObjectMapper(), Clock.fixed(NOW, ZoneOffset.UTC), 4);

    @Test
    void takesTheLargestTitleAndStockAndDefaultsTheWindow() {
        VoucherRequest request = requests.parse("{\"title\":\"" + "x".repeat(200) + "\",\"stock\":10000000}");

        assertThat(request.title()).hasSize(200);
        assertThat(request.stock()).isEqualTo(10_000_000);
        assertThat(request.beginAt()).isEqualTo(NOW);
        assertThat(request.endAt()).isNull();
    }

    @Test
    void takesTheSmallestStockAndAWindowOfOneMillisecond() {
        VoucherRequest request = requests.parse("{\"title\":\" Lamp \",\"stock\":1,"
                + "\"beginAt\":\"2026-11-21T10:00:00+01:00\",\"endAt\":\"2026-11-21T09:00:00.001Z\"}");

        assertThat(request.title()).isEqualTo("Lamp");
        assertThat(request.stock()).isEqualTo(1);
        assertThat(request.beginAt()).isEqualTo(Instant.parse("2026-11-21T09:00:00Z"));
        assertThat(request.endAt()).isEqualTo(Instant.parse("2026-11-21T09:00:00.001Z"));
    }

    @Test
    void refusesATitleOneOverTheLimitAndAnEndInThePastOfTheDefaultBegin() {
        assertThatThrownBy(() -> requests.parse("{\"title\":\"" + "x".repeat(201) + "\",\"stock\":1}"))
                .isInstanceOf(Refusal.class).hasMessageContaining("title");
        assertThatThrownBy(() -> requests.parse("{\"title\":\"a\",\"stock\":1,\"endAt\":\"2026-11-21T10:00:00Z\"}"))
                .isInstanceOf(Refusal.class).hasMessage("endAt must be after beginAt");
    }
}
