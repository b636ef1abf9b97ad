package io.seckill.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Creating a voucher is an admin verb: with an operator password set, only with the operator's login (HTTP Basic),
 * from this host too. Every refusal is a 401 that says how to log in, and creates nothing.
 */
@SeckillIntegrationTest
class AdminVerbIntegrationTests {

    private static final String VOUCHER = "{\"title\":\"Admin only\",\"stock\":5}";

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Test
    void theOperatorsLoginCreatesAVoucher() {
        Answer created = api.asOperator().post("/api/vouchers", VOUCHER);

        assertThat(created.status()).isEqualTo(201);
        long voucher = created.json().get("id").asLong();
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(5);
    }

    @Test
    void withoutALoginNothingIsCreatedEvenFromThisHost() {
        Stores.Snapshot before = stores.snapshot();

        Answer refused = api.post("/api/vouchers", VOUCHER);

        assertUnauthorized(refused);
        assertThat(refused.json().get("detail").asText()).contains("operator's login");
        assertThat(stores.snapshot()).isEqualTo(before);
    }

    @Test
    void aWrongLoginIsRefusedAndCreatesNothing() {
        Stores.Snapshot before = stores.snapshot();

        for (ApiClient intruder : List.of(api.withBasicAuth("operator", "guess"),
                api.withBasicAuth("root", "test-operator-password"), api.withBasicAuth("operator", ""))) {
            assertUnauthorized(intruder.post("/api/vouchers", VOUCHER));
        }
        for (String authorization : List.of("Bearer test-operator-password", "Basic not-base64!",
                "Basic " + java.util.Base64.getEncoder().encodeToString("no colon".getBytes()))) {
            assertUnauthorized(api.send(HttpRequest.newBuilder(URI.create(api.url("/api/vouchers")))
                    .header("Content-Type", "application/json").header("Authorization", authorization)
                    .POST(HttpRequest.BodyPublishers.ofString(VOUCHER))));
        }
        assertThat(stores.snapshot()).isEqualTo(before);
    }

    @Test
    void theOpenApiDocumentSaysSo() {
        Answer doc = api.get("/api-doc");

        assertThat(doc.json().at("/paths/~1api~1vouchers/post/security/0").has("operator")).isTrue();
        assertThat(doc.json().at("/components/securitySchemes/operator/scheme").asText()).isEqualTo("basic");
        assertThat(doc.json().at("/paths/~1api~1vouchers/post/responses/401/description").asText())
                .contains("UNAUTHORIZED");
        assertThat(doc.json().at("/paths/~1api~1vouchers/post/responses/403/description").asText())
                .contains("LOOPBACK_ONLY");
    }

    private static void assertUnauthorized(Answer answer) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(401);
        assertThat(answer.code()).isEqualTo("UNAUTHORIZED");
        assertThat(answer.header("Content-Type")).startsWith("application/problem+json");
        assertThat(answer.header("WWW-Authenticate")).isEqualTo("Basic realm=\"seckill operator\"");
    }
}
