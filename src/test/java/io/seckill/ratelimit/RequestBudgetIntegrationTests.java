package io.seckill.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.seckill.api.Problem;
import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.SeckillIntegrationTest;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * Every API request but the order POST spends its client address's budget (seckill.rate-limit.per-address-reads;
 * the test profile has it off): 5 at once, one more every 5 s, shared by the routes. 127.0.0.1 is a trusted
 * proxy, so each test is a client of its own by X-Forwarded-For; the vouchers it creates (from 127.0.0.1 itself)
 * stay within 127.0.0.1's burst.
 */
@SeckillIntegrationTest
@TestPropertySource(properties = {
    "seckill.rate-limit.per-address-reads.rate=0.2",
    "seckill.rate-limit.per-address-reads.burst=" + RequestBudgetIntegrationTests.BURST,
    "seckill.rate-limit.trusted-proxies=127.0.0.1"
})
class RequestBudgetIntegrationTests {

    static final int BURST = 5;

    @Autowired
    ApiClient api;

    @Test
    void readingAVoucherBeyondTheBudgetIsRefusedAndAnotherClientIsNot() {
        long voucher = api.createVoucher(5);
        String client = "203.0.113.31";

        Answer refused = firstRefusal(() -> get("/api/vouchers/" + voucher, client));

        assertRateLimited(refused, client);
        assertThat(get("/api/vouchers/" + voucher, "203.0.113.32").status()).isEqualTo(200);
    }

    @Test
    void theRoutesShareOneBudgetAndTheApiDocIsInIt() {
        String client = "203.0.113.33";

        Answer refused = firstRefusal(() -> get("/api-doc", client));
        assertRateLimited(refused, client);

        // Reading an order spends the same budget, before the buyer's order is even looked up.
        Answer order = api.send(HttpRequest.newBuilder(URI.create(api.url("/api/orders/1")))
                .header("X-Forwarded-For", client).header("X-User-Id", "7").GET());
        assertRateLimited(order, client);
        Answer payment = api.send(HttpRequest.newBuilder(URI.create(api.url("/api/orders/1/payment")))
                .header("X-Forwarded-For", client).header("X-User-Id", "7")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertRateLimited(payment, client);
    }

    @Test
    void ordersAreNotInTheBudget() {
        long voucher = api.createVoucher(20);
        String client = "203.0.113.34";
        firstRefusal(() -> get("/api/vouchers/" + voucher, client));

        // The order POST has limits of its own (off here), taken in its admission script.
        Answer order = api.send(HttpRequest.newBuilder(URI.create(api.url("/api/vouchers/" + voucher + "/orders")))
                .header("X-Forwarded-For", client).header("X-User-Id", "8")
                .POST(HttpRequest.BodyPublishers.noBody()));
        assertThat(order.status()).as(order.body()).isEqualTo(202);
    }

    private Answer get(String path, String client) {
        return api.send(HttpRequest.newBuilder(URI.create(api.url(path))).header("X-Forwarded-For", client).GET());
    }

    /** Sends until refused, which must happen once the burst is spent (one refill at most on a slow machine). */
    private static Answer firstRefusal(Supplier<Answer> request) {
        for (int i = 1; i <= BURST + 3; i++) {
            Answer answer = request.get();
            if (answer.status() == 429) {
                assertThat(i).isGreaterThan(BURST);
                return answer;
            }
            assertThat(answer.status()).as(answer.body()).isEqualTo(200);
        }
        return fail("Not refused within %d requests", BURST + 3);
    }

    private static void assertRateLimited(Answer answer, String client) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(429);
        assertThat(answer.header("Content-Type")).startsWith(Problem.MEDIA_TYPE);
        assertThat(answer.code()).isEqualTo("RATE_LIMITED");
        assertThat(answer.json().get("detail").asText()).contains("client address " + client);
        assertThat(Long.parseLong(answer.header("Retry-After"))).isBetween(1L, 5L);
    }
}
