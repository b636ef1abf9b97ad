package io.seckill.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.seckill.operator.OperatorProperties;
import io.seckill.support.ApiClient;
import io.seckill.support.FaultInjectionTest;
import io.seckill.support.FaultyDatabase;
import io.seckill.support.OrderStreams;
import io.seckill.support.PrometheusServer;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.camel.test.spring.junit5.DisableJmx;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.RedisSystemException;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The operator's tools against the running service: a real Prometheus (Debian's {@code prometheus} package) scrapes
 * its {@code /actuator/prometheus} every second with the operator's login and evaluates ops/prometheus's rules;
 * a database outage and a poison entry fire the alerts they should, which clear once mended; every query of the
 * Grafana dashboard is PromQL that Prometheus answers with data; and every metric a rule or a panel reads is one the
 * service exports. Without /usr/bin/prometheus these tests are skipped (and fail in CI).
 *
 * <p>Set {@code -Dseckill.ops.screenshot=PATH} to have headless Chromium save Prometheus's alerts page, with the
 * two alerts firing, as a PNG there (ops/prometheus-alerts.png was made so).
 */
@FaultInjectionTest
@DisableJmx(false)
class PrometheusIntegrationTests {

    private static final Duration DEADLINE = Duration.ofSeconds(60);
    /**
     * Every rule's {@code for:} in the copy Prometheus loads (OpsFiles.rulesWithFor): minutes in the real file,
     * which a test cannot wait. Expressions and thresholds stay as operators load them.
     */
    private static final String SHORT_FOR = "2s";
    private static final String STOPPED_WRITER = "SeckillWriterStopped";
    private static final String DEAD_LETTERS = "SeckillDeadLettersWaiting";
    /** Made by Prometheus for each scrape, never exported by a service. */
    private static final Set<String> NOT_EXPORTED = Set.of("up");
    private static final Path CHROMIUM = Path.of("/usr/bin/chromium");

    @Autowired
    ApiClient api;

    @Autowired
    OperatorProperties operator;

    @Autowired
    FaultyDatabase database;

    @Autowired
    StringRedisTemplate redis;

    @TempDir
    Path dir;

    PrometheusServer prometheus;
    OrderStreams streams;

    /**
     * A Prometheus of each test's own, started once the test's Camel context is (the Camel test support starts it
     * just before each test method): every test begins with no history of alerts.
     */
    @BeforeEach
    void quietStartAndPrometheus() {
        boolean installed = Files.isExecutable(PrometheusServer.BINARY);
        if (System.getenv("CI") != null) {
            // In CI a missing Prometheus is a broken machine (.ci/run installs it), never a reason to skip.
            assertThat(installed).as("%s must be installed (apt-get install prometheus)", PrometheusServer.BINARY)
                    .isTrue();
        }
        Assumptions.assumeTrue(installed, "No " + PrometheusServer.BINARY
                + ": install Debian's prometheus package (apt-get install prometheus) to run the alerts end to end");
        database.healAll();
        streams = new OrderStreams(redis);
        // XPENDING answers NOGROUP until the writer has created its consumer group, just after a fresh start.
        await().atMost(DEADLINE).ignoreExceptionsInstanceOf(RedisSystemException.class).until(streams::quiet);
        streams.clearDeadLetters();
        // jvm_gc_pause_seconds appears with the first collection of the service's JVM (this one) after its meters
        // were bound: a GC panel and the names test need one.
        System.gc();
        Path rules = OpsFiles.rulesWithFor(dir.resolve("rules"), SHORT_FOR);
        prometheus = PrometheusServer.start("alerts", dir.resolve("prometheus"), OpsFiles.JOB,
                URI.create(api.url("/actuator/prometheus")), operator.username(), operator.password(), List.of(rules));
    }

    @AfterEach
    void stopPrometheusAndHeal() throws InterruptedException {
        if (prometheus != null) {
            prometheus.close();
        }
        database.healAll();
    }

    @Test
    void aDatabaseOutageAndAPoisonEntryFireTheirAlertsWhichClearOnceMended() throws Exception {
        long voucher = api.createVoucher(10);
        // Prometheus scrapes the service with the operator's login and has what both rules read; then, with nothing
        // waiting and nothing dead, neither alert so much as goes pending while the rules are evaluated each second.
        await().atMost(DEADLINE).until(() -> !prometheus.series("up{job=\"seckill\"} == 1").isEmpty()
                && !prometheus.series("rate(seckill_orders_written_total[1m])").isEmpty()
                && !prometheus.series("seckill_dead_letters").isEmpty());
        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(10))
                .until(() -> active().stream().noneMatch(name -> name.equals(STOPPED_WRITER)
                        || name.equals(DEAD_LETTERS)));

        // XADD of an entry no writer can turn into an order: a dead letter at once (malformed, no retry).
        streams.add(Map.of("orderId", "garbage", "voucherId", "x"));
        await().atMost(DEADLINE).until(() -> streams.deadLetterCount() == 1);
        // The database goes away: orders are still accepted and wait in the stream, and nothing is written.
        database.goDown();
        api.orderAccepted(voucher, 1, 2, 3);

        await().atMost(DEADLINE).untilAsserted(() -> assertThat(prometheus.alertNames("firing"))
                .contains(STOPPED_WRITER, DEAD_LETTERS));
        JsonNode stopped = firing(STOPPED_WRITER);
        assertThat(stopped.path("labels").path("severity").asText()).isEqualTo("page");
        assertThat(stopped.path("labels").path("job").asText()).isEqualTo(OpsFiles.JOB);
        // The three orders waiting (the poison entry left the stream for the dead letters).
        assertThat(stopped.path("value").asDouble()).isEqualTo(3);
        assertThat(stopped.path("annotations").path("runbook_url").asText()).isEqualTo("docs/operations.md#health");
        JsonNode dead = firing(DEAD_LETTERS);
        assertThat(dead.path("labels").path("severity").asText()).isEqualTo("ticket");
        assertThat(dead.path("value").asDouble()).isEqualTo(1);
        assertThat(dead.path("annotations").path("summary").asText())
                .isEqualTo("Dead letters waiting for an operator: 1");
        // Nothing else this staging would explain: the instance is scraped, nothing was oversold.
        assertThat(prometheus.alertNames("firing")).doesNotContain("SeckillInstanceDown",
                "SeckillOversoldOrDuplicateBuyer", "SeckillDeadLettersBurst", "SeckillRedisUnavailable");
        screenshotIfAsked();

        database.comeBack();
        await().atMost(DEADLINE).until(streams::quiet);
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(active()).doesNotContain(STOPPED_WRITER));

        // DeadLetters.discard for each, as the operator would after dealing with the buyer.
        streams.clearDeadLetters();
        await().atMost(DEADLINE).untilAsserted(() -> assertThat(active()).doesNotContain(DEAD_LETTERS));
    }

    @Test
    void everyDashboardQueryIsPromqlThatPrometheusAnswersWithData() {
        // As Grafana sends them with every instance picked: $__rate_interval is at least four scrape intervals.
        List<Map.Entry<String, String>> queries = OpsFiles.panelExpressions().stream()
                .map(query -> Map.entry(query.getKey(), query.getValue().replace("$instance", ".*")
                        .replace("$__rate_interval", "1m")))
                .toList();

        await().atMost(DEADLINE).untilAsserted(() -> {
            SoftAssertions softly = new SoftAssertions();
            for (Map.Entry<String, String> query : queries) {
                softly.assertThat(prometheus.series(query.getValue())).as("%s: %s", query.getKey(), query.getValue())
                        .isNotEmpty();
            }
            softly.assertAll();
        });
        // The instance picker's query, label_values(seckill_admissions_total, instance), finds this instance.
        URI target = URI.create(api.url("/actuator/prometheus"));
        PrometheusServer.Answer instances = prometheus.get("/api/v1/label/instance/values?match[]="
                + URLEncoder.encode("seckill_admissions_total", StandardCharsets.UTF_8));
        assertThat(instances.json().path("data").toString()).contains(target.getHost() + ":" + target.getPort());
    }

    @Test
    void everyMetricARuleOrAPanelReadsIsExportedByTheService() {
        Set<String> exported = api.prometheus().samples().keySet().stream()
                .map(series -> series.contains("{") ? series.substring(0, series.indexOf('{')) : series)
                .collect(Collectors.toCollection(TreeSet::new));

        SoftAssertions softly = new SoftAssertions();
        Set<String> read = new TreeSet<>();
        OpsFiles.ruleExpressions().forEach((alert, expr) -> {
            Set<String> names = PromqlNames.of(expr);
            softly.assertThat(names).as("%s reads a metric", alert).isNotEmpty();
            names.stream().filter(name -> !NOT_EXPORTED.contains(name)).forEach(name ->
                    softly.assertThat(exported).as("rule %s reads %s", alert, name).contains(name));
            read.addAll(names);
        });
        OpsFiles.panelExpressions().forEach(panel -> {
            Set<String> names = PromqlNames.of(panel.getValue());
            softly.assertThat(names).as("panel %s reads a metric", panel.getKey()).isNotEmpty();
            names.forEach(name -> softly.assertThat(exported).as("panel %s reads %s", panel.getKey(), name)
                    .contains(name));
            read.addAll(names);
        });
        softly.assertAll();
        // The parse found what the files are about: a histogram's buckets, the tagged counters born at 0, the JVM.
        assertThat(read).contains("up", "seckill_orders_end_to_end_seconds_bucket", "seckill_dead_letters_added_total",
                "seckill_admissions_total", "seckill_stream_length", "jvm_gc_pause_seconds_sum",
                "jvm_memory_used_bytes").hasSizeGreaterThan(20);
    }

    private List<String> active() {
        return prometheus.alerts().stream().map(alert -> alert.path("labels").path("alertname").asText()).toList();
    }

    private JsonNode firing(String name) {
        return prometheus.alerts().stream()
                .filter(alert -> name.equals(alert.path("labels").path("alertname").asText())
                        && "firing".equals(alert.path("state").asText()))
                .findFirst().orElseThrow(() -> new AssertionError(name + " is not firing"));
    }

    /** Prometheus's own alerts page (the classic UI Debian ships), as the operator would see it now. */
    private void screenshotIfAsked() throws IOException, InterruptedException {
        String path = System.getProperty("seckill.ops.screenshot");
        if (path == null || path.isBlank()) {
            return;
        }
        assertThat(CHROMIUM).as("-Dseckill.ops.screenshot needs Debian's chromium").isExecutable();
        Path png = Path.of(path).toAbsolutePath();
        Files.createDirectories(png.getParent());
        Files.deleteIfExists(png);
        Process chromium = new ProcessBuilder(CHROMIUM.toString(), "--headless", "--no-sandbox", "--disable-gpu",
                "--disable-background-networking", "--disable-component-update", "--no-first-run",
                "--hide-scrollbars", "--window-size=1280,900", "--screenshot=" + png,
                prometheus.base() + "/classic/alerts")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        assertThat(chromium.waitFor(60, TimeUnit.SECONDS)).as("chromium finished").isTrue();
        assertThat(png).isNotEmptyFile();
    }
}
