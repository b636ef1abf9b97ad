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
import java.net.URLEncoder;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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

    @Autowired
    OperatorProperties operator;

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

        Answer count = operator.post("/actuator/jolokia",
                "{\"type\":\"read\",\"mbean\":\"seckill:type=DeadLetters\",\"attribute\":\"Count\"}");
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

    @Test
    void aRequestThatIsNotLoggedInGetsNoSessionAndNoCookie() {
        List<Answer> anonymous = List.of(
                api.send(HttpRequest.newBuilder(URI.create(api.url("/actuator/hawtio/")))
                        .header("Accept", "text/html").GET()),
                api.get("/login"),
                api.get("/actuator/prometheus"),
                api.post("/actuator/jolokia", exec("seckill:type=DeadLetters", "list", 1)),
                login("guess", null),
                api.get("/login?error"),
                api.get("/actuator/health/readiness"),
                // Logged in, but by its own credentials: nothing to keep.
                api.asOperator().get("/actuator/prometheus"));

        assertThat(anonymous).extracting(Answer::status).containsExactly(302, 200, 401, 403, 302, 200, 200, 200);
        for (Answer answer : anonymous) {
            assertThat(setCookies(answer)).as(answer.toString()).isEmpty();
        }
        assertThat(anonymous.get(4).header("Location")).endsWith("/login?error");
    }

    @Test
    void aLoginOpensASessionWhoseConsoleCallsCarryTheCsrfTokenUntilLogout() {
        Answer login = login(operator.password(), null);

        assertThat(login.status()).isEqualTo(302);
        assertThat(login.header("Location")).endsWith("/actuator/hawtio/");
        ConsoleSession session = ConsoleSession.of(api, login);
        Answer page = session.open();
        assertThat(page.status()).isEqualTo(200);
        ConsoleSession console = session.withCsrfToken(page);
        Answer count = console.post("/actuator/jolokia",
                "{\"type\":\"read\",\"mbean\":\"seckill:type=DeadLetters\",\"attribute\":\"Count\"}");
        assertThat(count.json().get("status").asInt()).as(count.body()).isEqualTo(200);
        assertThat(session.post("/actuator/jolokia", exec("seckill:type=DeadLetters", "list", 1)).status())
                .as("without the CSRF token").isEqualTo(403);

        Answer logout = console.logout();
        assertThat(logout.header("Location")).endsWith("/login?logout");
        assertThat(session.send(HttpRequest.newBuilder(URI.create(api.url("/actuator/prometheus"))).GET()).status())
                .as("the session is gone").isEqualTo(401);
    }

    @Test
    void loginsBeyondTheSessionCapAreRefusedUntilOneLogsOut() {
        List<ConsoleSession> open = new ArrayList<>();
        Answer refused = null;
        try {
            // Other tests' browser sessions may still be open: the cap is reached at the latest here.
            for (int i = 0; i <= operator.maxSessions() && refused == null; i++) {
                Answer login = login(operator.password(), null);
                if (login.header("Location").endsWith("/login?error")) {
                    refused = login;
                } else {
                    open.add(ConsoleSession.of(api, login));
                }
            }
            assertThat(refused).as("a login beyond %d sessions", operator.maxSessions()).isNotNull();
            assertThat(setCookies(refused)).isEmpty();
            assertThat(open).hasSizeLessThanOrEqualTo(operator.maxSessions());
        } finally {
            for (ConsoleSession session : open) {
                session.withCsrfToken(session.open()).logout();
            }
        }
        Answer again = login(operator.password(), null);
        assertThat(again.header("Location")).endsWith("/actuator/hawtio/");
        ConsoleSession last = ConsoleSession.of(api, again);
        last.withCsrfToken(last.open()).logout();
    }

    @Test
    void jolokiaOverGetIsRefusedAndRunsNothing() throws Exception {
        ApiClient operator = api.asOperator();
        try {
            Answer stop = operator.get("/actuator/jolokia/exec/org.apache.camel:context=seckill,type=routes,"
                    + "name=%22pending-sweeper%22/stop()");

            // 403 rather than 405: Hawtio finds Jolokia by a GET and takes a 403 for "it is there".
            assertThat(stop.status()).as(stop.body()).isEqualTo(403);
            assertThat(stop.code()).isEqualTo("FORBIDDEN");
            assertThat(stop.json().get("detail").asText()).isEqualTo("Jolokia takes POST only");
            assertThat(stop.header("Allow")).isEqualTo("POST");
            assertThat(camel.getRouteController().getRouteStatus("pending-sweeper")).isEqualTo(ServiceStatus.Started);
            assertThat(operator.get("/actuator/jolokia/read/seckill:type=DeadLetters/Count").status()).isEqualTo(403);
            assertThat(operator.get("/actuator/jolokia").status()).isEqualTo(403);
        } finally {
            if (!camel.getRouteController().getRouteStatus("pending-sweeper").isStarted()) {
                camel.getRouteController().startRoute("pending-sweeper");
            }
        }
    }

    @Test
    void aRequestFromAnotherOriginIsRefusedAndNoOriginIsEverEchoed() throws Exception {
        String stop = exec(SWEEPER_ROUTE, "stop()");
        try {
            for (String origin : List.of("http://evil.example", "null", "http://127.0.0.1:1",
                    "https:" + api.url("").substring("http:".length()))) {
                Answer refused = api.asOperator().send(jolokia(stop).header("Origin", origin));
                assertThat(refused.status()).as(origin).isEqualTo(403);
                assertThat(refused.code()).as(origin).isEqualTo("FORBIDDEN");
                assertThat(refused.header("Access-Control-Allow-Origin")).as(origin).isNull();
                assertThat(refused.header("Access-Control-Allow-Credentials")).as(origin).isNull();
            }
            assertThat(camel.getRouteController().getRouteStatus("pending-sweeper")).isEqualTo(ServiceStatus.Started);
            Answer preflight = api.send(HttpRequest.newBuilder(URI.create(api.url("/actuator/jolokia")))
                    .header("Origin", "http://evil.example").header("Access-Control-Request-Method", "POST")
                    .method("OPTIONS", HttpRequest.BodyPublishers.noBody()));
            assertThat(preflight.status()).isEqualTo(403);
            assertThat(preflight.header("Access-Control-Allow-Origin")).isNull();
            Answer crossSiteLogin = login(operator.password(), "http://evil.example");
            assertThat(crossSiteLogin.status()).isEqualTo(403);
            assertThat(setCookies(crossSiteLogin)).isEmpty();

            // The console's own origin: served, and still no CORS header.
            Answer own = api.asOperator().send(jolokia(exec("seckill:type=DeadLetters", "list", 1))
                    .header("Origin", api.url("")));
            assertThat(own.json().get("status").asInt()).as(own.body()).isEqualTo(200);
            assertThat(own.header("Access-Control-Allow-Origin")).isNull();
        } finally {
            if (!camel.getRouteController().getRouteStatus("pending-sweeper").isStarted()) {
                camel.getRouteController().startRoute("pending-sweeper");
            }
        }
    }

    private HttpRequest.Builder jolokia(String json) {
        return HttpRequest.newBuilder(URI.create(api.url("/actuator/jolokia")))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(json));
    }

    /** The login form as a browser posts it, from the given origin (none when null). */
    private Answer login(String password, String origin) {
        HttpRequest.Builder form = HttpRequest.newBuilder(URI.create(api.url("/login")))
                .header("Content-Type", "application/x-www-form-urlencoded")
                .POST(HttpRequest.BodyPublishers.ofString("username=" + operator.username() + "&password="
                        + URLEncoder.encode(password, StandardCharsets.UTF_8)));
        if (origin != null) {
            form.header("Origin", origin);
        }
        return api.send(form);
    }

    private static List<String> setCookies(Answer answer) {
        return answer.headers().entrySet().stream().filter(header -> header.getKey().equalsIgnoreCase("Set-Cookie"))
                .flatMap(header -> header.getValue().stream()).toList();
    }

    /** A browser's login: its session cookie and, once the console has handed it over, the CSRF token. */
    private record ConsoleSession(ApiClient api, String sessionId, String csrfToken) {

        static ConsoleSession of(ApiClient api, Answer login) {
            return new ConsoleSession(api, cookie(login, "JSESSIONID"), null);
        }

        /** Any logged-in page hands the CSRF token over, in the XSRF-TOKEN cookie. */
        Answer open() {
            return send(HttpRequest.newBuilder(URI.create(api.url("/actuator/health"))).GET());
        }

        ConsoleSession withCsrfToken(Answer page) {
            return new ConsoleSession(api, sessionId, cookie(page, "XSRF-TOKEN"));
        }

        Answer post(String path, String json) {
            return send(HttpRequest.newBuilder(URI.create(api.url(path))).header("Content-Type",
                    "application/json").POST(HttpRequest.BodyPublishers.ofString(json)));
        }

        /** The logout form as a browser posts it (a script is answered 204 instead of being sent to the form). */
        Answer logout() {
            return send(HttpRequest.newBuilder(URI.create(api.url("/logout"))).header("Accept", "text/html")
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.noBody()));
        }

        Answer send(HttpRequest.Builder request) {
            request.header("Cookie", "JSESSIONID=" + sessionId
                    + (csrfToken == null ? "" : "; XSRF-TOKEN=" + csrfToken));
            if (csrfToken != null) {
                request.header("X-XSRF-TOKEN", csrfToken);
            }
            return api.send(request);
        }

        private static String cookie(Answer answer, String name) {
            return setCookies(answer).stream().filter(cookie -> cookie.startsWith(name + "="))
                    .map(cookie -> cookie.substring(name.length() + 1, cookie.indexOf(';') < 0 ? cookie.length()
                            : cookie.indexOf(';')))
                    .findFirst().orElseThrow(() -> new AssertionError("no " + name + " cookie: " + answer));
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
