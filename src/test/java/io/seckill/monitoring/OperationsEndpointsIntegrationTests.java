package io.seckill.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.SeckillIntegrationTest;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/** What the service publishes for operators and API clients, and nothing more. */
@SeckillIntegrationTest
class OperationsEndpointsIntegrationTests {

    @Autowired
    ApiClient api;

    @Test
    void openApiDocumentDescribesEveryOperationOfTheContractWithEveryAnswer() {
        Answer doc = api.get("/api-doc");

        assertThat(doc.status()).isEqualTo(200);
        JsonNode paths = doc.json().get("paths");
        // path → method → status → problem codes its description names
        Map<String, Map<String, Map<String, List<String>>>> contract = new LinkedHashMap<>();
        contract.put("/api/vouchers", Map.of("post", Map.of(
                "201", List.of(), "400", List.of("BAD_REQUEST"), "401", List.of("UNAUTHORIZED"),
                "403", List.of("LOOPBACK_ONLY"), "429", List.of("RATE_LIMITED"), "500", List.of("INTERNAL_ERROR"),
                "503", List.of("REDIS_UNAVAILABLE"))));
        contract.put("/api/vouchers/{id}", Map.of("get", Map.of(
                "200", List.of(), "400", List.of("BAD_REQUEST"), "404", List.of("VOUCHER_NOT_FOUND"),
                "429", List.of("RATE_LIMITED"), "500", List.of("INTERNAL_ERROR"),
                "503", List.of("REDIS_UNAVAILABLE"))));
        contract.put("/api/vouchers/{id}/orders", Map.of("post", Map.of(
                "202", List.of(), "400", List.of("BAD_REQUEST"), "404", List.of("VOUCHER_NOT_FOUND"),
                "409", List.of("NOT_STARTED", "ENDED", "SOLD_OUT", "ALREADY_ORDERED"),
                "429", List.of("RATE_LIMITED"), "500", List.of("INTERNAL_ERROR"),
                "503", List.of("VOUCHER_REBUILDING", "REDIS_UNAVAILABLE"))));
        contract.put("/api/orders/{orderId}", Map.of("get", Map.of(
                "200", List.of(), "400", List.of("BAD_REQUEST"), "404", List.of("ORDER_NOT_FOUND"),
                "429", List.of("RATE_LIMITED"), "500", List.of("INTERNAL_ERROR"),
                "503", List.of("DATABASE_UNAVAILABLE"))));
        contract.put("/api/orders/{orderId}/payment", Map.of("post", Map.of(
                "200", List.of(), "400", List.of("BAD_REQUEST"), "401", List.of("PAYMENT_SIGNATURE_INVALID"),
                "403", List.of("LOOPBACK_ONLY"), "404", List.of("ORDER_NOT_FOUND"),
                "409", List.of("PAYMENT_EXPIRED", "NOT_CREATED_YET"), "429", List.of("RATE_LIMITED"),
                "500", List.of("INTERNAL_ERROR"))));

        assertThat(names(paths)).isEqualTo(new TreeSet<>(contract.keySet()));
        contract.forEach((path, methods) -> {
            assertThat(names(paths.get(path))).as(path).isEqualTo(new TreeSet<>(methods.keySet()));
            methods.forEach((method, answers) -> {
                JsonNode responses = paths.get(path).get(method).get("responses");
                assertThat(names(responses)).as("%s %s", method, path).isEqualTo(new TreeSet<>(answers.keySet()));
                answers.forEach((status, codes) -> {
                    JsonNode response = responses.get(status);
                    codes.forEach(code -> assertThat(response.get("description").asText())
                            .as("%s %s %s", method, path, status).contains(code));
                    String schema = response.at("/content/application~1json/schema/$ref").asText();
                    if (status.startsWith("2")) {
                        assertThat(schema).as("%s %s %s", method, path, status).startsWith("#/components/schemas/");
                    } else {
                        assertThat(schema).as("%s %s %s", method, path, status)
                                .isEqualTo("#/components/schemas/Problem");
                    }
                });
            });
        });
        JsonNode postOrder = paths.get("/api/vouchers/{id}/orders").get("post");
        assertThat(postOrder.at("/parameters/1/name").asText()).isEqualTo("X-User-Id");
        JsonNode getOrderBuyer = paths.at("/~1api~1orders~1{orderId}/get/parameters/1");
        assertThat(getOrderBuyer.get("name").asText()).isEqualTo("X-User-Id");
        assertThat(getOrderBuyer.get("in").asText()).isEqualTo("header");
        assertThat(getOrderBuyer.get("required").asBoolean()).isTrue();
        assertThat(postOrder.at("/responses/429/headers/Retry-After").isObject()).isTrue();
        assertThat(paths.at("/~1api~1orders~1{orderId}/get/responses/503/headers/Retry-After").isObject()).isTrue();
        assertThat(postOrder.at("/responses/503/headers/Retry-After").isObject()).isTrue();
        assertThat(postOrder.at("/responses/202/content/application~1json/schema/$ref").asText())
                .isEqualTo("#/components/schemas/OrderAccepted");
        assertThat(doc.json().at("/components/schemas/Problem/properties/code").isObject()).isTrue();
    }

    @Test
    void actuatorPublishesHealthInfoPrometheusAndTheConsoleOnly() {
        ApiClient operator = api.asOperator();
        JsonNode links = operator.get("/actuator").json().get("_links");

        assertThat(names(links)).containsExactlyInAnyOrder("self", "health", "health-path", "info", "prometheus",
                "hawtio", "jolokia");
        for (String hidden : List.of("/actuator/env", "/actuator/beans", "/actuator/configprops",
                "/actuator/loggers", "/actuator/heapdump", "/actuator/threaddump", "/actuator/camelroutes",
                "/actuator/camelroutecontroller")) {
            assertThat(operator.get(hidden).status()).as(hidden).isEqualTo(404);
        }
        assertThat(api.get("/h2-console").status()).isEqualTo(404);
        assertThat(operator.post("/actuator/shutdown", "{}").status()).isEqualTo(404);
    }

    @Test
    void probesAreUpWithReadinessCoveringWhatTheIntakeNeeds() {
        Answer liveness = api.get("/actuator/health/liveness");
        Answer readiness = api.get("/actuator/health/readiness");

        assertThat(liveness.status()).isEqualTo(200);
        assertThat(liveness.json().get("status").asText()).isEqualTo("UP");
        assertThat(readiness.status()).isEqualTo(200);
        // Which dependencies, and how they are, only for the operator. Not the database: orders wait in the stream
        // while it is down (issue 12)
        assertThat(readiness.json().has("components")).isFalse();
        assertThat(names(api.asOperator().get("/actuator/health/readiness").json().get("components")))
                .containsExactlyInAnyOrder("readinessState", "camelReadinessState", "warmUp", "redis", "redisEviction",
                        "orderBacklog", "orderExpiry");
        // On server.port too, where an orchestrator probes, whichever engine serves the API there.
        for (String probe : new String[] {"liveness", "readiness"}) {
            Answer onApiPort = api.send(HttpRequest.newBuilder(URI.create(api.base() + "/actuator/health/" + probe))
                    .GET());
            assertThat(onApiPort.status()).isEqualTo(200);
            assertThat(onApiPort.json().get("status").asText()).isEqualTo("UP");
        }
        assertThat(names(api.asOperator().get("/actuator/health").json().get("components"))).contains("db");
    }

    private static Set<String> names(JsonNode object) {
        Set<String> names = new TreeSet<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
