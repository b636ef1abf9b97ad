package io.seckill.payment;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.ApiClient;
import io.seckill.support.PaymentGateway;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;

/**
 * With {@code seckill.payment.signing-secret} set (the test profile sets one), a payment is recorded only with the
 * gateway's signature over its time, order and buyer, made within 300 s of now; from this host too. Every refusal is
 * 401 PAYMENT_SIGNATURE_INVALID and leaves the order unpaid and still due.
 */
@SeckillIntegrationTest
class PaymentSignatureIntegrationTests {

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    RedisKeys keys;

    @Value("${seckill.payment.signing-secret}")
    String secret;

    @Test
    void aSignedPaymentIsRecordedAndPayingAgainAnswersTheSame() {
        long voucher = api.createVoucher(1);
        String orderId = written(voucher, 7);
        PaymentGateway gateway = new PaymentGateway(secret);

        Answer paid = api.pay(orderId, "7", gateway.sign(orderId, "7"));
        // Signed a while ago, within the 300 s: the gateway's clock and ours need not agree to the second.
        Answer again = api.pay(orderId, "7", gateway.sign(Instant.now().minusSeconds(250), orderId, "7"));

        assertThat(paid.status()).as(paid.body()).isEqualTo(200);
        assertThat(paid.json().get("status").asText()).isEqualTo("PAID");
        assertThat(again.status()).as(again.body()).isEqualTo(200);
        assertThat(again.json()).isEqualTo(paid.json());
        String member = RedisKeys.unpaidOrder(Long.parseLong(orderId), 7);
        assertThat(stores.redis().opsForZSet().score(dueKey(voucher), member)).as("no longer due (ZSCORE)").isNull();
    }

    @Test
    void withoutAValidSignatureNothingIsPaid() {
        long voucher = api.createVoucher(2);
        String orderId = written(voucher, 7);
        String otherOrder = written(voucher, 8);
        PaymentGateway gateway = new PaymentGateway(secret);
        Instant signedAt = Instant.now();
        String valid = gateway.sign(signedAt, orderId, "7");
        Map<String, String> signatures = new LinkedHashMap<>();
        signatures.put("missing", null);
        signatures.put("not the format", "sha256=" + valid);
        signatures.put("another secret",
                new PaymentGateway("someone-else's-secret-0123456789abcdef").sign(orderId, "7"));
        signatures.put("another order's", gateway.sign(otherOrder, "7"));
        signatures.put("another buyer's", gateway.sign(orderId, "8"));
        // Beyond the 300 s tolerance by more than this test's own duration: the signature's time is whole seconds,
        // and the service reads its clock later, so 301 s ahead was once 300 s when it was checked.
        signatures.put("330 s old", gateway.sign(Instant.now().minusSeconds(330), orderId, "7"));
        signatures.put("330 s ahead", gateway.sign(Instant.now().plusSeconds(330), orderId, "7"));
        signatures.put("its time changed", valid.replace("t=" + signedAt.getEpochSecond(),
                "t=" + (signedAt.getEpochSecond() - 5)));
        Stores.Snapshot before = stores.snapshot();

        for (Map.Entry<String, String> signature : signatures.entrySet()) {
            Answer refused = api.pay(orderId, "7", signature.getValue());
            assertThat(refused.status()).as("%s: %s", signature.getKey(), refused.body()).isEqualTo(401);
            assertThat(refused.code()).as(signature.getKey()).isEqualTo("PAYMENT_SIGNATURE_INVALID");
            assertThat(refused.header("Content-Type")).startsWith("application/problem+json");
        }

        assertThat(stores.snapshot().orders()).isEqualTo(before.orders());
        assertThat(stores.snapshot().redis()).isEqualTo(before.redis());
        assertThat(api.getOrder(orderId, 7).json().get("status").asText()).isEqualTo("CREATED");
    }

    @Test
    void theSignatureIsTheHeaderNeverAQueryParameter() {
        long voucher = api.createVoucher(1);
        String orderId = written(voucher, 7);
        String signature = new PaymentGateway(secret).sign(orderId, "7");

        Answer refused = api.send(HttpRequest.newBuilder(URI.create(api.base() + "/api/orders/" + orderId
                        + "/payment?X-Payment-Signature=" + URLEncoder.encode(signature, StandardCharsets.UTF_8)))
                .header("X-User-Id", "7").POST(HttpRequest.BodyPublishers.noBody()));

        assertThat(refused.status()).as(refused.body()).isEqualTo(401);
        assertThat(refused.code()).isEqualTo("PAYMENT_SIGNATURE_INVALID");
        assertThat(api.getOrder(orderId, 7).json().get("status").asText()).isEqualTo("CREATED");
    }

    @Test
    void theOpenApiDocumentSaysSo() {
        Answer doc = api.get("/api-doc");

        List<String> parameters = doc.json().at("/paths/~1api~1orders~1{orderId}~1payment/post/parameters")
                .findValuesAsText("name");
        assertThat(parameters).contains("X-Payment-Signature");
        assertThat(doc.json().at("/paths/~1api~1orders~1{orderId}~1payment/post/responses/401/description").asText())
                .contains("PAYMENT_SIGNATURE_INVALID");
    }

    private String written(long voucher, long buyer) {
        return stores.written(api, keys.orderStreams(), voucher, buyer);
    }

    private String dueKey(long voucher) {
        return keys.dueOrdersOf(keys.ordersOf(voucher));
    }
}
