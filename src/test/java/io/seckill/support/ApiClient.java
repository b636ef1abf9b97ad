package io.seckill.support;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seckill.api.ApiListener;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.context.ApplicationContext;
import org.springframework.core.env.Environment;

/**
 * The service's REST API as a buyer or an operator calls it: plain HTTP, answers as status + JSON. Anonymous, as a
 * buyer is; {@link #asOperator()} sends the operator's credentials (HTTP Basic), as a script or Prometheus does, and
 * so does creating a voucher ({@link #createVoucher(String)}) when the client knows them.
 */
public class ApiClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final String base;
    /** Tomcat's address: the same as {@link #base} but with the netty-http engine (seckill.api.engine). */
    private final String management;
    private final String operatorUsername;
    private final String operatorPassword;
    private final String authorization;
    /** Signs payments when the service wants them signed (seckill.payment.signing-secret), else null. */
    private final PaymentGateway gateway;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    public ApiClient(String base) {
        this(base, null, null);
    }

    /** A client that knows the operator's login (and uses it only from {@link #asOperator()} on). */
    public ApiClient(String base, String operatorUsername, String operatorPassword) {
        this(base, base, operatorUsername, operatorPassword, null, null);
    }

    /** A client of a service whose API (base) and actuator, console and login (management) listen apart. */
    public ApiClient(String base, String management, String operatorUsername, String operatorPassword) {
        this(base, management, operatorUsername, operatorPassword, null, null);
    }

    private ApiClient(String base, String management, String operatorUsername, String operatorPassword,
            String authorization, PaymentGateway gateway) {
        this.base = base;
        this.management = management;
        this.operatorUsername = operatorUsername;
        this.operatorPassword = operatorPassword;
        this.authorization = authorization;
        this.gateway = gateway;
    }

    /** A client of a service started in this JVM, on whichever engine its API runs, knowing its operator's login. */
    public static ApiClient of(ApplicationContext service) {
        Environment settings = service.getEnvironment();
        String tomcat = "http://127.0.0.1:" + settings.getRequiredProperty("local.server.port");
        String api = service.getBeanProvider(ApiListener.class).stream()
                .map(listener -> "http://127.0.0.1:" + listener.port()).findFirst().orElse(tomcat);
        return new ApiClient(api, tomcat, settings.getProperty("seckill.operator.username", "operator"),
                settings.getProperty("seckill.operator.password"))
                .signingPaymentsWith(settings.getProperty("seckill.payment.signing-secret"));
    }

    /** The same client signing its payments as the gateway does with this secret (none when null or blank). */
    public ApiClient signingPaymentsWith(String secret) {
        PaymentGateway signer = secret == null || secret.isBlank() ? null : new PaymentGateway(secret);
        return new ApiClient(base, management, operatorUsername, operatorPassword, authorization, signer);
    }

    /** The same client calling the API at another of this machine's addresses (an IPv4 literal). */
    public ApiClient at(String address) {
        return new ApiClient("http://" + address + ":" + URI.create(base).getPort(), management, operatorUsername,
                operatorPassword, authorization, gateway);
    }

    /** The same client sending the operator's credentials with every request. */
    public ApiClient asOperator() {
        if (!knowsOperator()) {
            throw new IllegalStateException("This client does not know the operator's login");
        }
        return withBasicAuth(operatorUsername, operatorPassword);
    }

    /**
     * As the operator when this client knows the login; else as it is, which a service without an operator password
     * accepts for admin verbs from this host.
     */
    public ApiClient asOperatorIfKnown() {
        return knowsOperator() ? asOperator() : this;
    }

    private boolean knowsOperator() {
        return operatorPassword != null && !operatorPassword.isBlank();
    }

    /** The same client sending these credentials (HTTP Basic) with every request. */
    public ApiClient withBasicAuth(String username, String password) {
        String token = java.util.Base64.getEncoder()
                .encodeToString((username + ":" + password).getBytes(StandardCharsets.UTF_8));
        return new ApiClient(base, management, operatorUsername, operatorPassword, "Basic " + token, gateway);
    }

    /** The Authorization header this client sends, or null: for requests written by hand ({@link #raw}). */
    public String authorization() {
        return authorization;
    }

    public String base() {
        return base;
    }

    /** Where a path is served: the actuator, the console and the login by Tomcat, the rest by the API's engine. */
    public String url(String path) {
        boolean tomcat = path.startsWith("/actuator") || path.startsWith("/login") || path.startsWith("/logout");
        return (tomcat ? management : base) + path;
    }

    /** Creates a voucher on sale from now on, never ending; answers its id. */
    public long createVoucher(int stock) {
        Answer answer = createVoucher("{\"title\":\"Test voucher\",\"stock\":" + stock + "}");
        if (answer.status() != 201) {
            throw new IllegalStateException("Voucher not created: " + answer);
        }
        return answer.json().get("id").asLong();
    }

    /** {@code POST /api/vouchers}, an admin verb: with the operator's login when this client knows it. */
    public Answer createVoucher(String json) {
        return asOperatorIfKnown().post("/api/vouchers", json);
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
        return send(asBuyer(userId, HttpRequest.newBuilder(URI.create(base + "/api/vouchers/" + voucherId + "/orders"))
                .POST(HttpRequest.BodyPublishers.noBody())));
    }

    /** {@code GET /api/orders/{orderId}} as the buyer in {@code X-User-Id} (none when null). */
    public Answer getOrder(String orderId, String userId) {
        return send(asBuyer(userId, HttpRequest.newBuilder(URI.create(base + "/api/orders/" + orderId)).GET()));
    }

    public Answer getOrder(String orderId, long userId) {
        return getOrder(orderId, Long.toString(userId));
    }

    /**
     * {@code POST /api/orders/{orderId}/payment} as the buyer in {@code X-User-Id} (none when null), signed as the
     * gateway signs it when this client knows the secret.
     */
    public Answer pay(String orderId, String userId) {
        return pay(orderId, userId, gateway == null || userId == null ? null : gateway.sign(orderId, userId));
    }

    /** A payment with this {@code X-Payment-Signature} (none when null). */
    public Answer pay(String orderId, String userId, String signature) {
        HttpRequest.Builder request = asBuyer(userId, HttpRequest.newBuilder(
                URI.create(base + "/api/orders/" + orderId + "/payment")).POST(HttpRequest.BodyPublishers.noBody()));
        if (signature != null) {
            request.header("X-Payment-Signature", signature);
        }
        return send(request);
    }

    public Answer pay(String orderId, long userId) {
        return pay(orderId, Long.toString(userId));
    }

    /** The request as the gateway in front passes it on: the buyer in the {@code X-User-Id} header, when known. */
    private static HttpRequest.Builder asBuyer(String userId, HttpRequest.Builder request) {
        return userId == null ? request : request.header("X-User-Id", userId);
    }

    public Answer get(String path) {
        return send(HttpRequest.newBuilder(URI.create(url(path))).GET());
    }

    /** A scrape of the service's metrics, as Prometheus reads them: with the operator's login. */
    public Prometheus prometheus() {
        Answer answer = asOperator().get("/actuator/prometheus");
        if (answer.status() != 200) {
            throw new IllegalStateException("No metrics: " + answer);
        }
        return Prometheus.parse(answer.body());
    }

    public Answer post(String path, String json) {
        return send(HttpRequest.newBuilder(URI.create(url(path)))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)));
    }

    public Answer send(HttpRequest.Builder request) {
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
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

    /**
     * Sends the bytes as they are, which HttpClient would refuse (a malformed request line, a header it will not
     * send), from {@code localAddress} when given (any 127.x.y.z works on loopback); reads the answer until the
     * server closes the connection, so the request should say {@code Connection: close}.
     */
    public Answer raw(String request, String localAddress) {
        URI uri = URI.create(base);
        try (Socket socket = new Socket()) {
            if (localAddress != null) {
                socket.bind(new InetSocketAddress(localAddress, 0));
            }
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 5000);
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Answer raw(String request) {
        return raw(request, null);
    }

    /**
     * A connection to the API with these bytes sent and the rest still to come, as a slow or idle client leaves
     * it; its answer, once the server gives one, is read with {@link #answerOn}.
     */
    public Socket open(String start) {
        URI uri = URI.create(base);
        Socket socket = new Socket();
        try {
            socket.connect(new InetSocketAddress(uri.getHost(), uri.getPort()), 5000);
            socket.setSoTimeout(30_000);
            socket.getOutputStream().write(start.getBytes(StandardCharsets.ISO_8859_1));
            socket.getOutputStream().flush();
            return socket;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The answer on a connection, read until the server closes it. */
    public static Answer answerOn(Socket socket) {
        try {
            return parse(socket.getInputStream().readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Answer parse(byte[] response) throws IOException {
        String text = new String(response, StandardCharsets.ISO_8859_1);
        int headersEnd = text.indexOf("\r\n\r\n");
        if (headersEnd < 0) {
            throw new IOException("No complete HTTP answer: " + text);
        }
        String[] lines = text.substring(0, headersEnd).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, List<String>> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            headers.computeIfAbsent(lines[i].substring(0, colon).trim(), k -> new ArrayList<>())
                    .add(lines[i].substring(colon + 1).trim());
        }
        byte[] body = Arrays.copyOfRange(response, headersEnd + 4, response.length);
        Answer head = new Answer(status, "", headers);
        if ("chunked".equalsIgnoreCase(head.header("Transfer-Encoding"))) {
            body = dechunk(new ByteArrayInputStream(body));
        }
        return new Answer(status, new String(body, StandardCharsets.UTF_8), headers);
    }

    private static byte[] dechunk(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        while (true) {
            StringBuilder sizeLine = new StringBuilder();
            for (int c = in.read(); c != '\n'; c = in.read()) {
                if (c < 0) {
                    throw new IOException("Chunked body cut short");
                }
                sizeLine.append((char) c);
            }
            int size = Integer.parseInt(sizeLine.toString().trim().split(";")[0], 16);
            if (size == 0) {
                return out.toByteArray();
            }
            out.write(in.readNBytes(size));
            in.readNBytes(2);
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
