package io.seckill.warmup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.EventSubscriber;
import io.seckill.support.Prometheus;
import io.seckill.support.SeckillIntegrationTest;
import java.net.URI;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Set;
import org.apache.camel.CamelContext;
import org.apache.camel.Channel;
import org.apache.camel.Navigate;
import org.apache.camel.Processor;
import org.apache.camel.processor.errorhandler.DeadLetterChannel;
import org.apache.camel.processor.errorhandler.RedeliveryErrorHandler;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

/**
 * The self warm-up of a fresh service: readiness DOWN and the API 503 UNAVAILABLE while it runs, its orders written
 * by the order writer's path into a schema of its own, then open, with nothing left behind that a user or an
 * operator could see.
 */
@SeckillIntegrationTest
@TestPropertySource(properties = {
    "seckill.warm-up.enabled=true",
    "seckill.warm-up.min-duration=10s",
    "seckill.warm-up.max-duration=10s",
    // Eight connections at a time, so that even a slow machine's warm-up ends some (after 100 requests each).
    "seckill.warm-up.concurrency=8",
    "seckill.rate-limit.per-buyer.rate=5",
    "seckill.rate-limit.per-address.rate=2000"
})
class WarmUpIntegrationTests {

    @Autowired
    ApiClient api;

    @Autowired
    StringRedisTemplate redis;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    LettuceConnectionFactory connections;

    @Autowired
    CamelContext camel;

    @Test
    void aFreshServiceWarmsItselfUpBeforeItIsReadyAndLeavesNoTrace() throws Exception {
        // The context has just started: the warm-up runs for 10 s. Its writer writes meanwhile, into its own schema.
        EventSubscriber events = new EventSubscriber(connections, "seckill:events");
        // (The schema is made first, the routes added after it.)
        await().atMost(Duration.ofSeconds(10)).until(() -> warmUpSchemas() == 1
                && camel.getRoute("warm-up-writer") != null);
        // Its batch write runs under an error handler of the service's kind (whose callbacks the compiler profiles),
        // one that may redeliver (and so copies each batch's exchange first).
        RedeliveryErrorHandler warmUpBatches = errorHandlerOf("warm-up-write-orders");
        RedeliveryErrorHandler batches = errorHandlerOf("write-orders");
        assertThat(warmUpBatches).isExactlyInstanceOf(DeadLetterChannel.class);
        assertThat(batches).isExactlyInstanceOf(DeadLetterChannel.class);
        assertThat(warmUpBatches.determineIfRedeliveryIsEnabled()).isTrue();
        assertThat(batches.determineIfRedeliveryIsEnabled()).isTrue();
        Answer readiness = api.asOperator().get("/actuator/health/readiness");
        assertThat(readiness.status()).isEqualTo(503);
        assertThat(readiness.json().at("/components/warmUp/details/state").asText()).isEqualTo("warming up");
        // The probe on the API's own port says the same (on netty-http its answer, not Tomcat's).
        assertThat(apiPortProbe("readiness").status()).isEqualTo(503);
        assertThat(apiPortProbe("readiness").body()).isEqualTo("{\"status\":\"DOWN\"}");
        assertThat(apiPortProbe("liveness").status()).isEqualTo(200);
        Answer order = api.order(1, 7);
        assertThat(order.status()).isEqualTo(503);
        assertThat(order.code()).isEqualTo("UNAVAILABLE");
        assertThat(order.header("Retry-After")).isEqualTo("1");
        // Not even the warm-up's own vouchers, without its token.
        assertThat(api.order(Long.MAX_VALUE, 7).status()).isEqualTo(503);

        await().atMost(Duration.ofSeconds(60))
                .until(() -> api.get("/actuator/health/readiness").status() == 200);

        assertThat(apiPortProbe("readiness").status()).isEqualTo(200);
        assertThat(apiPortProbe("readiness").json().get("status").asText()).isEqualTo("UP");
        JsonNode warmUp = api.asOperator().get("/actuator/health/readiness").json().at("/components/warmUp");
        assertThat(warmUp.at("/status").asText()).isEqualTo("UP");
        assertThat(warmUp.at("/details/state").asText()).isEqualTo("done");
        assertThat(warmUp.at("/details/requests").asLong()).isGreaterThan(100);
        assertThat(warmUp.at("/details/lastSecondRate").asLong()).isPositive();
        // On connections that ended one after another (at most 100 requests each, every other one closed by the
        // server), as buyers' connections come and go: more than the 8 it holds at once.
        assertThat(warmUp.at("/details/connections").asLong()).isGreaterThan(8)
                .isGreaterThanOrEqualTo(warmUp.at("/details/requests").asLong() / 100);
        // The writer's path ran on the warm-up's orders: half of its requests and its sales' units were accepted and
        // written.
        assertThat(warmUp.at("/details/written").asLong()).isGreaterThan(50);
        // Its own sales started (NOT_STARTED until then) and sold out, again and again.
        assertThat(warmUp.at("/details/sales").asLong()).isPositive();
        // No trace: no key of its own left, no order in the stream, no row, no voucher, no buyer metric.
        assertThat(redis.keys("seckill:warm-up:*")).isEmpty();
        Set<String> keys = redis.keys("*");
        assertThat(keys).noneMatch(key -> key.contains(Long.toString(Long.MAX_VALUE))
                || key.contains(Long.toString(Long.MAX_VALUE - 1)) || key.contains(Long.toString(Long.MAX_VALUE - 2))
                || key.contains("rate-limit"));
        assertThat(redis.opsForStream().size("seckill:{s0}:orders")).isZero();
        assertThat(redis.opsForZSet().size("seckill:{s0}:orders:due")).isZero();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM orders", Long.class)).isZero();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM vouchers", Long.class)).isZero();
        assertThat(warmUpSchemas()).isZero();
        assertThat(camel.getRoute("warm-up-writer")).isNull();
        assertThat(camel.getRoute("warm-up-order-events")).isNull();
        Prometheus metrics = api.prometheus();
        assertThat(metrics.sum("seckill_admissions_total", "outcome")).isZero();
        assertThat(metrics.value("seckill_admissions_remembered_total")).isZero();
        assertThat(metrics.value("seckill_orders_written_total")).isZero();
        List<String> heard = new ArrayList<>();
        events.drainTo(heard);
        assertThat(heard).isEmpty();
        // Its vouchers are none of a buyer's, now as before: 404, not its keys.
        assertThat(api.order(Long.MAX_VALUE, 7).code()).isEqualTo("VOUCHER_NOT_FOUND");
        assertThat(api.order(Long.MAX_VALUE - 1, 7).code()).isEqualTo("VOUCHER_NOT_FOUND");
        assertThat(api.order(Long.MAX_VALUE - 2, 7).code()).isEqualTo("VOUCHER_NOT_FOUND");

        // And the service sells as usual: its order is written and announced.
        long voucher = api.createVoucher(1);
        assertThat(api.order(voucher, 7).status()).isEqualTo(202);
        assertThat(api.order(voucher, 8).code()).isEqualTo("SOLD_OUT");
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            events.drainTo(heard);
            return !heard.isEmpty();
        });
        assertThat(heard).singleElement().asString().contains("\"voucherId\":" + voucher);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM orders", Long.class)).isOne();
        events.close();
    }

    /** The warm-up's schemas in the service's database (seckill_warm_up_<instance>). */
    private long warmUpSchemas() {
        return jdbc.queryForObject("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SCHEMATA WHERE SCHEMA_NAME LIKE "
                + "'seckill_warm_up_%'", Long.class);
    }

    /** The error handler around a route's first step (each step is a channel that holds it). */
    private RedeliveryErrorHandler errorHandlerOf(String routeId) {
        Deque<Processor> processors = new ArrayDeque<>(camel.getRoute(routeId).navigate().next());
        while (!processors.isEmpty()) {
            Processor processor = processors.pop();
            if (processor instanceof Channel channel) {
                return (RedeliveryErrorHandler) channel.getErrorHandler();
            }
            if (processor instanceof Navigate<?> navigate && navigate.hasNext()) {
                navigate.next().forEach(next -> processors.add((Processor) next));
            }
        }
        throw new AssertionError("no step of route " + routeId + " has an error handler");
    }

    /** GET /actuator/health/{group} on the port the API listens on, as an orchestrator's probe of server.port. */
    private Answer apiPortProbe(String group) {
        return api.send(HttpRequest.newBuilder(URI.create(api.base() + "/actuator/health/" + group)).GET());
    }
}
