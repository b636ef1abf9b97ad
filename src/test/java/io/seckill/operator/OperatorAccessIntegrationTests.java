package io.seckill.operator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.FaultInjectionTest;
import io.seckill.support.OrderStreams;
import io.seckill.support.Stores;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.ServiceStatus;
import org.apache.camel.test.spring.junit5.DisableJmx;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Who gets through which management door: nobody without the operator's login but the probes, and the operator
 * through Jolokia only as far as the restrictor lets them. Shares the JMX-exporting context of the fault-injection
 * tests, so the dead-letter MBean and Camel's MBeans are there.
 */
@FaultInjectionTest
@DisableJmx(false)
class OperatorAccessIntegrationTests {

    private static final String CAMEL_CONTEXT = "org.apache.camel:context=seckill,type=context,name=\"seckill\"";
    private static final String SWEEPER_ROUTE = "org.apache.camel:context=seckill,type=routes,name=\"pending-sweeper\"";

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    CamelContext camel;

    @Autowired
    StringRedisTemplate redis;

    @Test
    void withoutALoginOnlyTheProbesAnswer() {
        for (String locked : List.of("/actuator", "/actuator/hawtio", "/actuator/hawtio/", "/actuator/jolokia",
                "/actuator/jolokia/version", "/actuator/health", "/actuator/prometheus", "/actuator/info")) {
            Answer answer = api.get(locked);
            assertThat(answer.status()).as(locked).isEqualTo(401);
            assertThat(answer.header("WWW-Authenticate")).as(locked).startsWith("Basic");
            assertThat(answer.code()).as(locked).isEqualTo("UNAUTHORIZED");
        }
        Answer readiness = api.get("/actuator/health/readiness");
        assertThat(readiness.status()).isEqualTo(200);
        assertThat(readiness.body()).isEqualTo("{\"status\":\"UP\"}");
        assertThat(api.get("/actuator/health/liveness").status()).isEqualTo(200);
    }

    @Test
    void aWrongPasswordIsNoLogin() {
        ApiClient intruder = api.withBasicAuth("operator", "guess");

        assertThat(intruder.get("/actuator/prometheus").status()).isEqualTo(401);
        assertThat(intruder.post("/actuator/jolokia", exec("seckill:type=DeadLetters", "replayAll")).status())
                .isEqualTo(401);
    }

    @Test
    void aManagementUrlInDisguiseStillNeedsTheLogin() {
        // Spring Security's filter is mapped to the management URLs only (the API skips it): spellings that reach
        // the same endpoint through Tomcat's and Spring MVC's path normalisation must meet it too.
        for (String path : List.of("/actuator/prometheus/", "/actuator;x=1/prometheus", "//actuator/prometheus",
                "/actuator/./prometheus", "/api/../actuator/prometheus", "/actuator/%70rometheus")) {
            Answer answer = api.get(path);
            assertThat(answer.status()).as(path).isIn(400, 401, 404);
            assertThat(answer.body()).as(path).doesNotContain("seckill_dead_letters");
        }
    }

    @Test
    void aBrowserIsSentToTheLoginForm() {
        Answer answer = api.send(HttpRequest.newBuilder(URI.create(api.url("/actuator/hawtio/")))
                .header("Accept", "text/html,application/xhtml+xml").GET());

        assertThat(answer.status()).isEqualTo(302);
        assertThat(answer.header("Location")).endsWith("/login");
        assertThat(api.get("/login").body()).contains("name=\"username\"", "name=\"password\"");
    }

    @Test
    void theOperatorReadsHealthDetailsAndMetrics() {
        ApiClient operator = api.asOperator();

        Answer health = operator.get("/actuator/health");
        assertThat(health.status()).isEqualTo(200);
        assertThat(health.json().at("/components/orderBacklog/details/backlog").isNumber()).isTrue();
        assertThat(operator.get("/actuator/prometheus").body()).contains("seckill_dead_letters");
    }

    @Test
    void theApiStaysOutsideTheLogin() {
        // No session, no CSRF token, no security headers on the buyers' side.
        long voucher = api.createVoucher(1);
        Answer order = api.order(voucher, 1);

        assertThat(order.status()).isEqualTo(202);
        for (Answer answer : List.of(order, api.get("/api/vouchers/" + voucher), api.get("/api-doc"))) {
            assertThat(answer.header("Set-Cookie")).isNull();
            assertThat(answer.header("X-Frame-Options")).isNull();
            assertThat(answer.header("Cache-Control")).isNull();
        }
    }

    @Test
    void jolokiaRefusesSendingMessagesThroughCamelAndChangesNothing() {
        long voucher = api.createVoucher(1);
        api.orderAccepted(voucher, 5);
        await().atMost(Duration.ofSeconds(60)).until(() -> stores.orderRows(voucher) == 1);

        for (String operation : List.of("sendBody(java.lang.String,java.lang.Object)",
                "requestBody(java.lang.String,java.lang.Object)")) {
            Answer refused = api.asOperator().post("/actuator/jolokia",
                    exec(CAMEL_CONTEXT, operation, "sql:DELETE FROM orders", "x"));
            assertThat(refused.json().get("status").asInt()).as(operation).isEqualTo(403);
        }
        Answer createEndpoint = api.asOperator().post("/actuator/jolokia",
                exec(CAMEL_CONTEXT, "createEndpoint", "sql:DELETE FROM orders"));
        assertThat(createEndpoint.json().get("status").asInt()).isEqualTo(403);
        Answer updateRoute = api.asOperator().post("/actuator/jolokia", exec(SWEEPER_ROUTE, "updateRouteFromXml",
                "<route id=\"pending-sweeper\"><from uri=\"timer:x\"/><to uri=\"sql:DELETE FROM orders\"/></route>"));
        assertThat(updateRoute.json().get("status").asInt()).isEqualTo(403);

        assertThat(stores.orderRows(voucher)).isEqualTo(1);
        assertThat(camel.getEndpoints()).noneMatch(endpoint -> endpoint.getEndpointUri().contains("DELETE"));
    }

    @Test
    void jolokiaRefusesTheJvmsDiagnosticsAndWritingAttributes(@TempDir Path directory) {
        Path heapDump = directory.resolve("heap.hprof");

        Answer dumpHeap = api.asOperator().post("/actuator/jolokia", exec("com.sun.management:type=HotSpotDiagnostic",
                "dumpHeap", heapDump.toString(), true));
        Answer diagnosticCommand = api.asOperator().post("/actuator/jolokia",
                exec("com.sun.management:type=DiagnosticCommand", "vmSystemProperties"));
        Answer write = api.asOperator().post("/actuator/jolokia", "{\"type\":\"write\",\"mbean\":"
                + quote("java.lang:type=Memory") + ",\"attribute\":\"Verbose\",\"value\":true}");

        assertThat(dumpHeap.json().get("status").asInt()).isEqualTo(403);
        assertThat(heapDump).doesNotExist();
        assertThat(diagnosticCommand.json().get("status").asInt()).isEqualTo(403);
        assertThat(diagnosticCommand.body()).doesNotContain("java.home");
        assertThat(write.json().get("status").asInt()).isEqualTo(403);
    }

    @Test
    void jolokiaRunsTheDeadLetterConsoleAndStartsAndStopsRoutes() throws Exception {
        OrderStreams streams = new OrderStreams(redis);
        // XADD: an entry the writer cannot read becomes a dead letter
        streams.add(Map.of("orderId", "not-a-number"));
        await().atMost(Duration.ofSeconds(60)).until(() -> streams.deadLetterCount() >= 1);
        ApiClient operator = api.asOperator();

        Answer count = operator.get("/actuator/jolokia/read/seckill:type=DeadLetters/Count");
        Answer list = operator.post("/actuator/jolokia", exec("seckill:type=DeadLetters", "list", 100));
        assertThat(count.json().get("value").asLong()).isEqualTo(streams.deadLetterCount());
        assertThat(list.json().get("value").findValuesAsText("orderId")).contains("not-a-number");

        // The id as the console lists it: it names its shard (s0:<stream id>)
        String id = null;
        for (JsonNode letter : list.json().get("value")) {
            if ("not-a-number".equals(letter.path("orderId").asText())) {
                id = letter.get("id").asText();
            }
        }
        assertThat(id).startsWith("s0:");
        Answer discard = operator.post("/actuator/jolokia", exec("seckill:type=DeadLetters", "discard", id));
        assertThat(discard.json().get("value").asBoolean()).isTrue();
        assertThat(streams.deadLetters()).noneMatch(letter -> "not-a-number".equals(letter.get("orderId")));

        try {
            assertThat(operator.post("/actuator/jolokia", exec(SWEEPER_ROUTE, "stop()")).json().get("status").asInt())
                    .isEqualTo(200);
            assertThat(camel.getRouteController().getRouteStatus("pending-sweeper")).isEqualTo(ServiceStatus.Stopped);
            assertThat(operator.post("/actuator/jolokia", exec(SWEEPER_ROUTE, "start()")).json().get("status").asInt())
                    .isEqualTo(200);
            assertThat(camel.getRouteController().getRouteStatus("pending-sweeper")).isEqualTo(ServiceStatus.Started);
        } finally {
            if (!camel.getRouteController().getRouteStatus("pending-sweeper").isStarted()) {
                camel.getRouteController().startRoute("pending-sweeper");
            }
        }
    }

    private static String exec(String mbean, String operation, Object... arguments) {
        StringBuilder json = new StringBuilder("{\"type\":\"exec\",\"mbean\":").append(quote(mbean))
                .append(",\"operation\":").append(quote(operation)).append(",\"arguments\":[");
        for (int i = 0; i < arguments.length; i++) {
            json.append(i == 0 ? "" : ",");
            json.append(arguments[i] instanceof String text ? quote(text) : String.valueOf(arguments[i]));
        }
        return json.append("]}").toString();
    }

    private static String quote(String text) {
        return "\"" + text.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
