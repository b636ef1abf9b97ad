package io.seckill.voucher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.seckill.refusal.Reason;
import io.seckill.refusal.Refusal;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

/** A {@code POST /api/vouchers} body: each mistake named with its own message, defaults filled in. */
class VoucherRequestsTests {

    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00.123456Z");

    private final VoucherRequests requests = new VoucherRequests(new ObjectMapper(),
            Clock.fixed(NOW, ZoneOffset.UTC), 4);

    @Test
    void fullRequestIsReadWithTimesInMilliseconds() {
        VoucherRequest request = requests.parse("""
                {"title":"  Lunch for two  ","stock":100,"beginAt":"2026-11-21T12:00:00.123456+02:00",
                 "endAt":"2026-11-21T11:00:00Z"}""");

        assertThat(request).isEqualTo(new VoucherRequest("Lunch for two", 100,
                Instant.parse("2026-11-21T10:00:00.123Z"), Instant.parse("2026-11-21T11:00:00Z")));
    }

    @Test
    void saleBeginsNowAndNeverEndsByDefault() {
        VoucherRequest request = requests.parse("{\"title\":\"Lunch\",\"stock\":1,\"endAt\":null}");

        assertThat(request.beginAt()).isEqualTo(Instant.parse("2026-11-21T10:00:00.123Z"));
        assertThat(request.endAt()).isNull();
    }

    @Test
    void stockAndTitleAtTheirLimitsAreAccepted() {
        // The database counts UTF-16 units: an emoji is two of the 200.
        String title = "🎟".repeat(VoucherRequests.MAX_TITLE_LENGTH / 2);

        VoucherRequest request = requests.parse("{\"title\":\"" + title + "\",\"stock\":10000000}");

        assertThat(request.title()).isEqualTo(title);
        assertThat(request.stock()).isEqualTo(10_000_000);
    }

    @Test
    void bodyThatIsNoJsonObject() {
        assertBadRequest(null, "The body is empty; expected a JSON object");
        assertBadRequest("  ", "The body is empty; expected a JSON object");
        assertBadRequest("{\"title\":", "The body is not one valid JSON value (line 1, column 10)");
        assertBadRequest("[1,2]", "The body must be a JSON object");
        assertBadRequest("\"voucher\"", "The body must be a JSON object");
    }

    @Test
    void unknownField() {
        assertBadRequest("{\"title\":\"a\",\"stock\":1,\"price\":3}",
                "Unknown field 'price'; expected title, stock, beginAt, endAt, buckets");
        assertBadRequest("{\"" + "x".repeat(50) + "\":1}",
                "Unknown field '" + "x".repeat(40) + "…'; expected title, stock, beginAt, endAt, buckets");
    }

    @Test
    void bucketsDefaultToOneAndAreAtMostTheShards() {
        assertThat(requests.parse("{\"title\":\"a\",\"stock\":1}").buckets()).isEqualTo(1);
        assertThat(requests.parse("{\"title\":\"a\",\"stock\":1,\"buckets\":4}").buckets()).isEqualTo(4);
        String outOfRange = "buckets must be between 1 and 4, the number of shards (seckill.stream.shards): each "
                + "bucket is on a shard of its own";
        assertBadRequest("{\"title\":\"a\",\"stock\":1,\"buckets\":0}", outOfRange);
        assertBadRequest("{\"title\":\"a\",\"stock\":1,\"buckets\":5}", outOfRange);
        assertBadRequest("{\"title\":\"a\",\"stock\":1,\"buckets\":\"4\"}", "buckets must be a whole number");
        assertBadRequest("{\"title\":\"a\",\"stock\":1,\"buckets\":2.5}", "buckets must be a whole number");
    }

    @Test
    void title() {
        assertBadRequest("{\"stock\":1}", "title is required");
        assertBadRequest("{\"title\":null,\"stock\":1}", "title is required");
        assertBadRequest("{\"title\":5,\"stock\":1}", "title must be a string");
        assertBadRequest("{\"title\":\"   \",\"stock\":1}", "title must not be empty");
        assertBadRequest("{\"title\":\"" + "t".repeat(201) + "\",\"stock\":1}", "title must be at most 200 characters (an emoji or another character beyond the Basic Multilingual Plane counts as two)");
    }

    @Test
    void stock() {
        assertBadRequest("{\"title\":\"a\"}", "stock is required");
        assertBadRequest("{\"title\":\"a\",\"stock\":null}", "stock is required");
        assertBadRequest("{\"title\":\"a\",\"stock\":\"5\"}", "stock must be a whole number");
        assertBadRequest("{\"title\":\"a\",\"stock\":1.5}", "stock must be a whole number");
        for (String outOfRange : new String[] {"0", "-1", "10000001", "99999999999999999999"}) {
            assertBadRequest("{\"title\":\"a\",\"stock\":" + outOfRange + "}", "stock must be between 1 and 10000000");
        }
    }

    @Test
    void saleWindow() {
        assertBadRequest("{\"title\":\"a\",\"stock\":1,\"beginAt\":5}",
                "beginAt must be an ISO-8601 date-time string such as 2026-11-21T10:00:00Z");
        assertBadRequest("{\"title\":\"a\",\"stock\":1,\"endAt\":\"tomorrow\"}",
                "endAt is not an ISO-8601 date-time with an offset, such as 2026-11-21T10:00:00Z: 'tomorrow'");
        assertBadRequest("{\"title\":\"a\",\"stock\":1,\"beginAt\":\"2026-11-21T10:00:00\"}",
                "beginAt is not an ISO-8601 date-time with an offset, such as 2026-11-21T10:00:00Z: "
                        + "'2026-11-21T10:00:00'");
        assertBadRequest("{\"title\":\"a\",\"stock\":1,\"beginAt\":\"2026-11-21T11:00:00Z\","
                + "\"endAt\":\"2026-11-21T11:00:00Z\"}", "endAt must be after beginAt");
        // Without beginAt the sale begins now: an endAt in the past ends it before it begins.
        assertBadRequest("{\"title\":\"a\",\"stock\":1,\"endAt\":\"2026-11-21T09:00:00Z\"}",
                "endAt must be after beginAt");
    }

    private void assertBadRequest(String body, String detail) {
        assertThatThrownBy(() -> requests.parse(body)).as(body)
                .isInstanceOfSatisfying(Refusal.class, e -> {
                    assertThat(e.reason()).isEqualTo(Reason.INVALID);
                    assertThat(e.getMessage()).isEqualTo(detail);
                });
    }
}
