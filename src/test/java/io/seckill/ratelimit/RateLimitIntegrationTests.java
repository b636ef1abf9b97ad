package io.seckill.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import com.zaxxer.hikari.HikariDataSource;
import io.seckill.Application;
import io.seckill.api.Problem;
import io.seckill.config.EmbeddedRedis;
import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.ApiClient;
import io.seckill.support.SharedEmbeddedRedis;
import io.seckill.support.Stores;
import io.seckill.support.WithRateLimits;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.domain.Range;

/**
 * Rate limits on {@code POST /api/vouchers/{id}/orders} (settings in {@link WithRateLimits}): per buyer, per
 * client address as seen through trusted proxies, answered 429 before the admission script, shared by every
 * instance on the same Redis. Each test uses buyers and addresses of its own.
 */
@WithRateLimits
class RateLimitIntegrationTests {

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    RedisKeys keys;

    @Autowired
    EmbeddedRedis redis;

    @Autowired
    HikariDataSource database;

    @Test
    void buyerOverTheLimitIsRefusedBeforeAdmissionAndOtherBuyersAreNot() {
        String address = "198.51.100.1";

        Refused refused = drainBuyer(api, 1001, address);

        assertThat(refused.accepted()).isGreaterThanOrEqualTo(WithRateLimits.BUYER_BURST);
        assertRateLimited(refused.answer(), "buyer 1001");
        // The admission script (DECR + SADD + XADD in one) never ran: stock, buyers and stream as they were.
        long voucher = refused.voucher();
        assertThat(stores.remaining(keys.voucher(voucher))).isEqualTo(5);
        assertThat(stores.redis().opsForSet().isMember(keys.buyers(voucher), "1001")).isFalse(); // SISMEMBER
        assertThat(streamEntriesOf(voucher)).isEmpty(); // XRANGE
        // Another buyer from the same address still gets the unit.
        assertThat(order(api, voucher, 1002, address).status()).isEqualTo(202);
        assertThat(stores.remaining(keys.voucher(voucher))).isEqualTo(4);
    }

    @Test
    void aBuyerOverTheirOwnLimitSpendsNoneOfTheAddressTokens() {
        String address = "198.51.100.3";
        long voucher = api.createVoucher(100);
        // One script takes both tokens: the buyer's verdict first, and a refused buyer takes none of the address's.
        int hammering = 3 * WithRateLimits.ADDRESS_BURST;
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < hammering; i++) {
            Answer answer = order(api, voucher, 1005, address);
            statuses.add(answer.status());
            if (answer.status() == 429) {
                assertRateLimited(answer, "buyer 1005");
            }
        }
        // Within the buyer's burst: the order, then ALREADY_ORDERED; past it, 429 for the buyer.
        assertThat(statuses.subList(0, WithRateLimits.BUYER_BURST)).containsExactly(202, 409, 409);
        // (a slow machine may see the buyer's bucket refill once in a while: another 409)
        assertThat(statuses.subList(WithRateLimits.BUYER_BURST, hammering)).isSubsetOf(429, 409).contains(429);
        long addressTokensSpent = statuses.stream().filter(status -> status != 429).count();

        // The address spent one token per request the buyer's bucket let through, not one per request.
        for (long other = 1100; other < 1100 + WithRateLimits.ADDRESS_BURST - addressTokensSpent; other++) {
            Answer answer = order(api, voucher, other, address);
            assertThat(answer.status()).as("buyer %d: %s", other, answer.body()).isEqualTo(202);
        }
    }

    @Test
    void buyerLimitRecoversOnceATokenIsBack() {
        String address = "198.51.100.2";
        Refused refused = drainBuyer(api, 1003, address);
        assertRateLimited(refused.answer(), "buyer 1003");

        // One token every 4 s; a refused poll takes none.
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                assertThat(order(api, refused.voucher(), 1003, address).status()).isEqualTo(202));
        assertThat(stores.remaining(keys.voucher(refused.voucher()))).isEqualTo(4);
    }

    @Test
    void clientAddressBehindTrustedProxiesIsLimitedAndOthersAreNot() {
        long voucher = api.createVoucher(100);
        String client = "203.0.113.7";

        // Through the trusted proxy 127.0.0.1, many buyers from one client address.
        Answer refused = firstRefusal(i -> order(api, voucher, 2000 + i, client));
        assertRateLimited(refused, "client address " + client);
        // The same client through a second trusted proxy (10.0.0.0/8) is the same client...
        assertRateLimited(order(api, voucher, 2100, client + ", 10.1.2.3"), "client address " + client);
        // ...a client that put its own X-Forwarded-For in front is still itself (the right-most untrusted)...
        assertRateLimited(order(api, voucher, 2101, "192.0.2.99, " + client), "client address " + client);
        // ...while another client behind the same proxy is not limited,
        assertThat(order(api, voucher, 2102, "203.0.113.8").status()).isEqualTo(202);
        // nor is a peer that is no trusted proxy, whatever X-Forwarded-For it claims.
        assertThat(orderFrom("127.0.0.3", voucher, 2103, client).status()).isEqualTo(202);
    }

    @Test
    void forwardedForFromAnUntrustedPeerIsIgnored() {
        long voucher = api.createVoucher(100);

        // 127.0.0.2 is no trusted proxy: every request names another client, all count against 127.0.0.2.
        Answer refused = firstRefusal(i -> orderFrom("127.0.0.2", voucher, 3000 + i, "192.0.2." + i));
        assertRateLimited(refused, "client address 127.0.0.2");
    }

    /**
     * The proxy passes the client's URL on as it is: an X-Forwarded-For query parameter (which Camel's HTTP
     * consumers put among the message's headers) is the client's own say, not a hop the proxy saw.
     */
    @Test
    void forwardedForInTheQueryStringIsIgnored() {
        long voucher = api.createVoucher(100);
        String client = "203.0.113.9";

        // Each request names another address in its query string: all count against the header's client.
        Answer refused = firstRefusal(i -> order(api, "/api/vouchers/" + voucher + "/orders?X-Forwarded-For=192.0.2."
                + i, 5000 + i, client));
        assertRateLimited(refused, "client address " + client);
    }

    @Test
    void twoInstancesOnOneRedisShareTheLimit() {
        try (ConfigurableApplicationContext second = startSecondInstance()) {
            ApiClient secondApi = ApiClient.of(second);
            String address = "198.51.100.40";

            // The buyer spends their tokens on this instance...
            Refused refused = drainBuyer(api, 4001, address);
            assertRateLimited(refused.answer(), "buyer 4001");

            // ...and the other instance, asked at once, finds the bucket empty too.
            long voucher = secondApi.createVoucher(5);
            assertRateLimited(order(secondApi, voucher, 4001, address), "buyer 4001");
            assertThat(stores.remaining(keys.voucher(voucher))).isEqualTo(5);
            // A buyer the first instance never saw has a full bucket on the second.
            assertThat(order(secondApi, voucher, 4002, address).status()).isEqualTo(202);
        }
    }

    /** A voucher that refused a buyer, the answer, and how many orders the buyer got in before. */
    record Refused(long voucher, Answer answer, int accepted) {}

    /**
     * Orders for one buyer, each on a voucher of its own (stock 5), until one is refused. Refill is slow (one
     * token every 4 s), so the burst runs out within a few requests however slow the machine.
     */
    private static Refused drainBuyer(ApiClient client, long buyer, String address) {
        List<Long> vouchers = new ArrayList<>();
        for (int i = 0; i < 3 * WithRateLimits.BUYER_BURST; i++) {
            vouchers.add(client.createVoucher(5));
        }
        int accepted = 0;
        for (long voucher : vouchers) {
            Answer answer = order(client, voucher, buyer, address);
            if (answer.status() == 429) {
                return new Refused(voucher, answer, accepted);
            }
            assertThat(answer.status()).as(answer.body()).isEqualTo(202);
            accepted++;
        }
        return fail("Buyer %d was never limited in %d orders", buyer, vouchers.size());
    }

    /**
     * Sends the i-th order (from 1, each of a buyer of its own) until one is refused, which must happen within 30
     * and only once the address's burst is spent.
     */
    private static Answer firstRefusal(IntFunction<Answer> order) {
        int accepted = 0;
        for (int i = 1; i <= 30; i++) {
            Answer answer = order.apply(i);
            if (answer.status() == 429) {
                assertThat(accepted).isGreaterThanOrEqualTo(WithRateLimits.ADDRESS_BURST);
                return answer;
            }
            assertThat(answer.status()).as(answer.body()).isEqualTo(202);
            accepted++;
        }
        return fail("Not refused within 30 requests");
    }

    private static void assertRateLimited(Answer answer, String who) {
        assertThat(answer.status()).as(answer.body()).isEqualTo(429);
        assertThat(answer.header("Content-Type")).startsWith(Problem.MEDIA_TYPE);
        assertThat(answer.code()).isEqualTo("RATE_LIMITED");
        assertThat(answer.json().get("detail").asText()).contains(who);
        assertThat(answer.header("Retry-After")).matches("[0-9]+");
        assertThat(Long.parseLong(answer.header("Retry-After"))).isGreaterThanOrEqualTo(1);
    }

    /** From 127.0.0.1, which the tests' settings trust as a proxy: X-Forwarded-For names the client. */
    private static Answer order(ApiClient client, long voucher, long buyer, String forwardedFor) {
        return order(client, "/api/vouchers/" + voucher + "/orders", buyer, forwardedFor);
    }

    private static Answer order(ApiClient client, String path, long buyer, String forwardedFor) {
        return client.send(HttpRequest.newBuilder(URI.create(client.base() + path))
                .header("X-User-Id", Long.toString(buyer))
                .header("X-Forwarded-For", forwardedFor)
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** From another loopback address; HttpClient cannot choose its local address, a socket can. */
    private Answer orderFrom(String localAddress, long voucher, long buyer, String forwardedFor) {
        return api.raw("POST /api/vouchers/" + voucher + "/orders HTTP/1.1\r\nHost: localhost\r\n"
                + "X-User-Id: " + buyer + "\r\nX-Forwarded-For: " + forwardedFor + "\r\n"
                + "Content-Length: 0\r\nConnection: close\r\n\r\n", localAddress);
    }

    private List<Object> streamEntriesOf(long voucher) {
        return stores.redis().opsForStream().range(keys.ordersOf(voucher), Range.unbounded()).stream()
                .filter(entry -> Long.toString(voucher).equals(entry.getValue().get("voucherId")))
                .map(entry -> (Object) entry.getValue())
                .toList();
    }

    /**
     * A second instance of the service in this JVM, on this test's Redis and database, with the same limits: as a
     * second node behind a load balancer would run. A consumer name of its own (the first holds "test"); JMX off, so
     * its MBeans do not clash with the first's.
     */
    private ConfigurableApplicationContext startSecondInstance() {
        List<String> arguments = new ArrayList<>(SharedEmbeddedRedis.arguments(redis));
        arguments.addAll(List.of("--server.port=0",
                "--spring.datasource.url=" + database.getJdbcUrl(),
                "--seckill.stream.consumer-name=second-instance",
                "--spring.jmx.enabled=false",
                "--camel.main.jmx-enabled=false",
                "--seckill.rate-limit.per-buyer.rate=0.25",
                "--seckill.rate-limit.per-buyer.burst=" + WithRateLimits.BUYER_BURST,
                "--seckill.rate-limit.per-address.rate=0.2",
                "--seckill.rate-limit.per-address.burst=" + WithRateLimits.ADDRESS_BURST,
                "--seckill.rate-limit.trusted-proxies=127.0.0.1,10.0.0.0/8"));
        return new SpringApplicationBuilder(Application.class).profiles("test").run(arguments.toArray(String[]::new));
    }
}
