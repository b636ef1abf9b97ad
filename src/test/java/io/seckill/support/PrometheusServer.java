package io.seckill.support;

import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Prometheus (Debian's {@code prometheus} package, {@code /usr/bin/prometheus}) started by a test: its own
 * free port on 127.0.0.1, its own storage in a temporary directory, and a configuration written for the test, so
 * whatever the package's own service does on this machine does not matter. It scrapes one target every second with
 * the operator's login (HTTP Basic, the password in a file, as an operator would configure it) and evaluates its
 * rule files every second. Its log goes to {@code target/prometheus/<name>.log}.
 */
public final class PrometheusServer implements AutoCloseable {

    public static final Path BINARY = Path.of("/usr/bin/prometheus");
    public static final Path PROMTOOL = Path.of("/usr/bin/promtool");
    private static final Path LOGS = Path.of("target", "prometheus").toAbsolutePath();
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Process process;
    /** Stops Prometheus when the test JVM exits without closing it (a failed or interrupted run). */
    private final Thread stopOnExit;
    private final String base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private PrometheusServer(Process process, int port) {
        this.process = process;
        this.stopOnExit = new Thread(process::destroy, "stop-prometheus");
        Runtime.getRuntime().addShutdownHook(stopOnExit);
        this.base = "http://127.0.0.1:" + port;
    }

    /**
     * Starts Prometheus scraping {@code target}'s {@code metricsPath} as job {@code job}, with these rule files.
     * Answers once it is ready ({@code /-/ready}); the first scrape follows within a second.
     */
    public static PrometheusServer start(String name, Path dir, String job, URI target, String username,
            String password, List<Path> ruleFiles) {
        int port = ServiceProcess.freePort();
        try {
            Files.createDirectories(dir);
            Files.createDirectories(LOGS);
            Path passwordFile = dir.resolve("operator-password");
            Files.writeString(passwordFile, password);
            List<String> rules = new ArrayList<>();
            ruleFiles.forEach(file -> rules.add("  - " + file.toAbsolutePath()));
            Path config = dir.resolve("prometheus.yml");
            Files.writeString(config, String.join("\n",
                    "global:",
                    "  scrape_interval: 1s",
                    "  scrape_timeout: 1s",
                    "  evaluation_interval: 1s",
                    "rule_files:",
                    String.join("\n", rules),
                    "scrape_configs:",
                    "  - job_name: " + job,
                    "    metrics_path: " + target.getPath(),
                    "    basic_auth:",
                    "      username: " + username,
                    "      password_file: " + passwordFile.toAbsolutePath(),
                    "    static_configs:",
                    "      - targets: ['" + target.getHost() + ":" + target.getPort() + "']",
                    ""));
            Process process = new ProcessBuilder(BINARY.toString(),
                    "--config.file=" + config.toAbsolutePath(),
                    "--storage.tsdb.path=" + dir.resolve("data").toAbsolutePath(),
                    "--web.listen-address=127.0.0.1:" + port)
                    .redirectErrorStream(true).redirectOutput(LOGS.resolve(name + ".log").toFile()).start();
            PrometheusServer server = new PrometheusServer(process, port);
            try {
                server.awaitReady();
            } catch (RuntimeException e) {
                Runtime.getRuntime().removeShutdownHook(server.stopOnExit);
                process.destroyForcibly();
                throw e;
            }
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not start Prometheus", e);
        }
    }

    private void awaitReady() {
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                .failFast("Prometheus exited; see its log in " + LOGS, () -> !process.isAlive())
                .until(this::ready);
    }

    private boolean ready() {
        try {
            return http.send(HttpRequest.newBuilder(URI.create(base + "/-/ready")).build(),
                    HttpResponse.BodyHandlers.discarding()).statusCode() == 200;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public String base() {
        return base;
    }

    /** {@code GET /api/v1/alerts}: the alerts pending or firing now, each with its labels and {@code state}. */
    public List<JsonNode> alerts() {
        List<JsonNode> alerts = new ArrayList<>();
        api("/api/v1/alerts").path("data").path("alerts").forEach(alerts::add);
        return alerts;
    }

    /** The names of the alerts in this state ({@code pending} or {@code firing}) now. */
    public List<String> alertNames(String state) {
        return alerts().stream().filter(alert -> state.equals(alert.path("state").asText()))
                .map(alert -> alert.path("labels").path("alertname").asText()).toList();
    }

    /** {@code GET /api/v1/query}: an instant query's answer, whatever its status (a bad expression is 400). */
    public Answer query(String expr) {
        return get("/api/v1/query?query=" + URLEncoder.encode(expr, StandardCharsets.UTF_8));
    }

    /** The series an instant query answers; fails when Prometheus refuses the expression. */
    public List<JsonNode> series(String expr) {
        Answer answer = query(expr);
        if (answer.status() != 200) {
            throw new AssertionError("Prometheus refused " + expr + ": " + answer.body());
        }
        List<JsonNode> series = new ArrayList<>();
        answer.json().path("data").path("result").forEach(series::add);
        return series;
    }

    private JsonNode api(String path) {
        Answer answer = get(path);
        if (answer.status() != 200) {
            throw new IllegalStateException(path + " answered " + answer.status() + ": " + answer.body());
        }
        return answer.json();
    }

    public Answer get(String path) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + path))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** SIGTERM, and SIGKILL if it has not exited within 10 s. */
    @Override
    public void close() throws InterruptedException {
        Runtime.getRuntime().removeShutdownHook(stopOnExit);
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }

    public record Answer(int status, String body) {

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
