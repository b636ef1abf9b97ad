package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.support.ApiClient;
import io.seckill.support.OnNettyEngine;
import io.seckill.support.SeckillIntegrationTest;
import java.net.URI;
import java.net.http.HttpRequest;
import org.apache.camel.CamelContext;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * On netty-http an order placement goes to its route without Camel's path search ({@link NettyApiMultiplexer}), and
 * every request answers as it did: the shortcut's orders (a query too), the requests it leaves to Camel's search (an
 * id that is not plain digits, a path beside it, another verb) and the other verbs on the same port.
 */
@SeckillIntegrationTest
@OnNettyEngine
class NettyApiMultiplexerIntegrationTests {

    @Autowired
    ApiClient api;

    @Autowired
    CamelContext camel;

    @Autowired
    ApiListener listener;

    @Test
    void theApiPortsMultiplexerKnowsTheOrderPlacementsRoute() {
        assertThat(camel.getComponent("netty-http")).isInstanceOf(NettyApiComponent.class);
        NettyApiMultiplexer multiplexer = (NettyApiMultiplexer) ((NettyApiComponent) camel.getComponent("netty-http"))
                .getMultiplexChannelHandler(listener.port());

        assertThat(multiplexer.orders()).isNotNull();
        assertThat(multiplexer.orders().getConsumer().getRouteId()).isEqualTo("api-post-order");
    }

    @Test
    void ordersAndEveryOtherRequestAreAnsweredAsBefore() {
        long voucher = api.createVoucher(3);

        assertThat(api.order(voucher, 71).status()).isEqualTo(202);
        assertThat(api.send(HttpRequest.newBuilder(URI.create(api.url("/api/vouchers/" + voucher + "/orders?via=q")))
                .header("X-User-Id", "72").POST(HttpRequest.BodyPublishers.noBody())).status()).isEqualTo(202);
        // Left to Camel's search: the same route answers, or none.
        assertThat(api.order("abc", "73").code()).isEqualTo("BAD_REQUEST");
        assertThat(api.order(voucher, 71).code()).isEqualTo("ALREADY_ORDERED");
        assertThat(api.post("/api/vouchers/" + voucher + "/orders/extra", "{}").status()).isEqualTo(404);
        assertThat(api.get("/api/vouchers/" + voucher + "/orders").status()).isEqualTo(405);
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(1);
    }
}
