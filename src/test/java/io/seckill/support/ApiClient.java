package io.seckill.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The service's REST API as a buyer or an operator calls it: plain HTTP, answers as status + JSON. */
public class ApiClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String base;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public ApiClient(String base) {
        this.base = base;
    }

    public String base() {
        return base;
    }

    /** Creates a voucher on sale from now on, never ending; answers its id. */
    public long createVoucher(int stock) {
        Answer answer = post("/api/vouchers", "{\"title\":\"Test voucher\",\"stock\":" + stock + "}");
        if (answer.status() != 201) {
            throw new IllegalStateException("Voucher not created: " + answer);
        }
        return answer.json().get("id").asLong();
    }

    /** Orders one unit for each buyer, each expected to be accepted; answers the order ids, in buyer order. */
    public List<String> orderAccepted(long voucherId, long... buyers) {
        List<String> orderIds = new ArrayList<>(buyers.length);
        for (long buyer : buyers) {
            Answer answer = order(voucherId, buyer);
            if (answer.status() != 202) {
                throw new IllegalStateException("Order of buyer " + buyer + " not accepted: " + answer);
            }
            orderIds.add(answer.json().get("orderId").asText());
        }
        return orderIds;
    }

    public Answer order(long voucherId, long userId) {
        return order(voucherId, Long.toString(userId));
    }

    public Answer order(Object voucherId, String userId) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + "/api/vouchers/" + voucherId + "/orders"))
                .POST(HttpRequest.BodyPublishers.noBody());
        if (userId != null) {
            request.header("X-User-Id", userId);
        }
        return send(request);
    }

    public Answer get(String path) {
        return send(HttpRequest.newBuilder(URI.create(base + path)).GET());
    }

    /** A scrape of the service's metrics, as Prometheus reads them. */
    public Prometheus prometheus() {
        Answer answer = get("/actuator/prometheus");
        if (answer.status() != 200) {
            throw new IllegalStateException("No metrics: " + answer);
        }
        return Prometheus.parse(answer.body());
    }

    public Answer post(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(base + path))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    public Answer send(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = http.send(request.timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return new Answer(response.statusCode(), response.body(), response.headers().map());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** An HTTP answer. */
    public record Answer(int status, String body, Map<String, List<String>> headers) {

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new UncheckedIOException("Not JSON: " + body, e);
            }
        }

        /** The problem+json {@code code}, or null. */
        public String code() {
            JsonNode code = json().get("code");
            return code == null ? null : code.asText();
        }

        public String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }
    }
}
