package io.seckill.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.ApiClient;
import io.seckill.support.OtherHost;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.TestPropertySource;

/**
 * The service as it starts out of the box, with no operator password and no payment signing secret: the console and
 * Jolokia are not there, and admin verbs and payments are taken from this host only, as Redis's protected mode does.
 * Another host is staged by calling this machine's own non-loopback address ({@link OtherHost}).
 */
@ExtendWith(OutputCaptureExtension.class)
@SeckillIntegrationTest
@TestPropertySource(properties = {"seckill.operator.password=", "seckill.payment.signing-secret="})
class ConsoleOffIntegrationTests {

    private static final String VOUCHER = "{\"title\":\"Local\",\"stock\":2}";

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    RedisKeys keys;

    @Test
    void consoleAndJolokiaAreNotThere() {
        for (String absent : List.of("/actuator/hawtio", "/actuator/hawtio/", "/actuator/hawtio/index.html",
                "/actuator/jolokia", "/actuator/jolokia/version")) {
            assertThat(api.get(absent).status()).as(absent).isEqualTo(404);
        }
    }

    @Test
    void nobodyCanLogInAndTheProbesAndTheApiStillAnswer() {
        assertThat(api.withBasicAuth("operator", "").get("/actuator/prometheus").status()).isEqualTo(401);
        assertThat(api.withBasicAuth("user", "").get("/actuator/health").status()).isEqualTo(401);
        assertThat(api.get("/actuator/health/readiness").status()).isEqualTo(200);
        assertThat(api.get("/actuator/health/liveness").status()).isEqualTo(200);
        long voucher = api.createVoucher(1);
        assertThat(api.order(voucher, 1).status()).isEqualTo(202);
    }

    @Test
    void thisHostCreatesVouchersAndPaysWithoutLoginOrSignature() {
        Answer created = api.post("/api/vouchers", VOUCHER);
        assertThat(created.status()).as(created.body()).isEqualTo(201);
        String orderId = written(created.json().get("id").asLong(), 7);

        Answer paid = api.pay(orderId, 7);

        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        assertThat(paid.json().get("status").asText()).isEqualTo("PAID");
        assertThat(api.pay(orderId, 7).json()).isEqualTo(paid.json());
    }

    @Test
    void anotherHostCreatesNoVoucherAndPaysNothing() {
        String address = OtherHost.address().orElse(null);
        Assumptions.assumeTrue(address != null, "this machine has no non-loopback address to call itself at");
        long voucher = api.createVoucher(1);
        String orderId = written(voucher, 7);
        ApiClient remote = api.at(address);
        Stores.Snapshot before = stores.snapshot();

        assertLoopbackOnly(remote.post("/api/vouchers", VOUCHER), "operator password");
        assertLoopbackOnly(remote.pay(orderId, 7), "signing secret");

        assertThat(stores.snapshot()).isEqualTo(before);
        assertThat(api.getOrder(orderId, 7).json().get("status").asText()).isEqualTo("CREATED");
        // Buyers on other hosts are served as ever.
        assertThat(remote.get("/api/vouchers/" + voucher).status()).isEqualTo(200);
    }

    /** A reverse proxy on this host forwards for others: what it passes on is not local. */
    @Test
    void aRequestForwardedByAProxyOnThisHostIsNotLocal() {
        Stores.Snapshot before = stores.snapshot();

        Answer refused = api.send(HttpRequest.newBuilder(URI.create(api.url("/api/vouchers")))
                .header("Content-Type", "application/json").header("X-Forwarded-For", "198.51.100.7")
                .POST(HttpRequest.BodyPublishers.ofString(VOUCHER)));

        assertLoopbackOnly(refused, "operator password");
        assertThat(stores.snapshot()).isEqualTo(before);
    }

    @Test
    void theStartUpSaysSoAndLogsNoGeneratedPassword(CapturedOutput output) {
        // The capture starts before the Spring context (its extension is declared first), so it sees the start-up.
        assertThat(output.getAll()).contains("No operator password (seckill.operator.password): the console")
                .contains("admin verbs (POST /api/vouchers) are accepted from this host only")
                .contains("No payment signing secret (seckill.payment.signing-secret): payments are accepted from "
                        + "this host only")
                .doesNotContainIgnoringCase("generated security password");
    }

    private String written(long voucher, long buyer) {
        return stores.written(api, keys.orderStreams(), voucher, buyer);
    }

    private static void assertLoopbackOnly(Answer answer, String setting) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(403);
        assertThat(answer.code()).isEqualTo("LOOPBACK_ONLY");
        assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
        assertThat(answer.json().get("detail").asText()).contains(setting);
    }
}
