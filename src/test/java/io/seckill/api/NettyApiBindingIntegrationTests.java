package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.support.ApiClient;
import io.seckill.support.OnNettyEngine;
import io.seckill.support.SeckillIntegrationTest;
import java.net.URI;
import java.net.http.HttpRequest;
import org.apache.camel.CamelContext;
import org.apache.camel.component.netty.http.NettyHttpEndpoint;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * Every route on the API's port answers through {@link NettyApiBinding}, and an answer carries its own headers only:
 * none of the request's, the path's or the query's, nor Camel's or Netty's, while a voucher's creation keeps its
 * {@code Location}.
 */
@SeckillIntegrationTest
@OnNettyEngine
class NettyApiBindingIntegrationTests {

    @Autowired
    ApiClient api;

    @Autowired
    CamelContext camel;

    @Test
    void everyRouteOnTheApisPortAnswersThroughTheApisBinding() {
        assertThat(camel.getEndpoints()).filteredOn(NettyHttpEndpoint.class::isInstance).isNotEmpty()
                .allSatisfy(endpoint -> assertThat(((NettyHttpEndpoint) endpoint).getNettyHttpBinding())
                        .isInstanceOf(NettyApiBinding.class));
    }

    @Test
    void anAnswerCarriesItsOwnHeadersOnly() {
        ApiClient.Answer created = api.createVoucher("{\"title\":\"headers\",\"stock\":2}");
        long voucher = created.json().get("id").asLong();
        ApiClient.Answer accepted = api.send(HttpRequest.newBuilder(
                        URI.create(api.url("/api/vouchers/" + voucher + "/orders?debug=1")))
                .header("X-User-Id", "81").header("X-Trace", "t-1").POST(HttpRequest.BodyPublishers.noBody()));
        ApiClient.Answer refused = api.order(voucher, 81);

        assertThat(created.status()).isEqualTo(201);
        assertThat(created.headers()).containsOnlyKeys("content-length", "content-type", "connection", "location");
        assertThat(created.headers().get("location")).containsExactly("/api/vouchers/" + voucher);
        assertThat(accepted.status()).isEqualTo(202);
        assertThat(accepted.headers()).containsOnlyKeys("content-length", "content-type", "connection");
        assertThat(refused.code()).isEqualTo("ALREADY_ORDERED");
        assertThat(refused.headers()).containsOnlyKeys("content-length", "content-type", "connection");
    }
}
