package io.seckill.bench;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The winners who pay: one in EVERY of the accepted orders (FILE, orderId,userId lines), each paid as its buyer;
 * an order not written yet (409 NOT_CREATED_YET) is paid again shortly. Prints the orders paid and those refused.
 * Untimed, so on the JDK's HttpClient. Unsigned: the bench's service has no payment signing secret, and the loopback
 * pays without one.
 *
 * <pre>pay URL FILE EVERY</pre>
 */
final class Payments {

    private Payments() {
    }

    static void run(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        List<String> accepted = Files.readAllLines(Path.of(args[1]));
        int every = Integer.parseInt(args[2]);
        long paid = 0;
        long refused = 0;
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        for (int i = 0; i < accepted.size(); i++) {
            String[] order = accepted.get(i).split(",");
            if (order.length != 2 || i % every != 0) {
                continue;
            }
            HttpRequest payment = HttpRequest.newBuilder(url.resolve("/api/orders/" + order[0] + "/payment"))
                    .header("X-User-Id", order[1])
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            HttpResponse<String> response = http.send(payment, HttpResponse.BodyHandlers.ofString());
            while (response.statusCode() == 409 && response.body().contains("NOT_CREATED_YET")
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
                response = http.send(payment, HttpResponse.BodyHandlers.ofString());
            }
            if (response.statusCode() == 200) {
                paid++;
            } else {
                refused++;
            }
        }
        ResultLines.print("pay_paid", paid);
        ResultLines.print("pay_refused", refused);
    }
}
