package io.seckill.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The service's voucher verbs the bench needs, over HTTP. Creating a voucher is an admin verb: the bench's service
 * runs without an operator password, so this machine (the loopback) creates vouchers without a login.
 */
final class VoucherApi {

    private static final Pattern ID = Pattern.compile("\"id\":(\\d+)");
    private static final Pattern STOCK = Pattern.compile("\"stock\":(\\d+)");
    private static final Pattern REMAINING = Pattern.compile("\"remaining\":(-?\\d+)");

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;

    VoucherApi(String base) {
        this.base = base;
    }

    /** A voucher of STOCK units titled TITLE, on sale from BEGIN_AT (ISO-8601, UTC) or from now when null; its id. */
    long create(String title, long stock, String beginAt) throws IOException, InterruptedException {
        String body = "{\"title\":\"" + title + "\",\"stock\":" + stock
                + (beginAt == null ? "" : ",\"beginAt\":\"" + beginAt + "\"") + "}";
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(base + "/api/vouchers"))
                .timeout(Duration.ofSeconds(30)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
        Matcher id = ID.matcher(response.body());
        if (response.statusCode() / 100 != 2 || !id.find()) {
            throw new IOException("could not create a voucher: " + response.statusCode() + " " + response.body());
        }
        return Long.parseLong(id.group(1));
    }

    /** A voucher's stock and what Redis says is left of it. */
    record Units(long stock, long remaining) {
        long sold() {
            return stock - remaining;
        }
    }

    Units units(long voucher) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(URI.create(base + "/api/vouchers/" + voucher))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        Matcher stock = STOCK.matcher(response.body());
        Matcher remaining = REMAINING.matcher(response.body());
        if (response.statusCode() != 200 || !stock.find() || !remaining.find()) {
            throw new IOException("no stock for voucher " + voucher + ": " + response.statusCode() + " "
                    + response.body());
        }
        return new Units(Long.parseLong(stock.group(1)), Long.parseLong(remaining.group(1)));
    }

    /** One order by BUYER; fails unless the service accepts it. */
    void order(long voucher, long buyer) throws IOException, InterruptedException {
        HttpResponse<String> response = client.send(HttpRequest.newBuilder(
                        URI.create(base + "/api/vouchers/" + voucher + "/orders")).timeout(Duration.ofSeconds(30))
                .header("X-User-Id", String.valueOf(buyer)).POST(HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("the order was refused: " + response.statusCode() + " " + response.body());
        }
    }
}
