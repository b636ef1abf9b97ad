package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which requests {@link NettyApiMultiplexer} hands to the order placement itself; the rest Camel's search places. */
class NettyApiMultiplexerTests {

    @ParameterizedTest
    @CsvSource({
            "POST, /api/vouchers/42/orders, true",
            "POST, /api/vouchers/9223372036854775807/orders, true",
            "POST, /api/vouchers/42/orders?x=1, true",
            "GET, /api/vouchers/42/orders, false",
            "PUT, /api/vouchers/42/orders, false",
            "POST, /api/vouchers//orders, false",
            "POST, /api/vouchers/0/orders, false",
            "POST, /api/vouchers/abc/orders, false",
            "POST, /api/vouchers/-1/orders, false",
            "POST, /api/vouchers/9223372036854775808/orders, false",
            "POST, /api/vouchers/4/2/orders, false",
            "POST, /api/vouchers/42/orders/, false",
            "POST, /api/vouchers/42, false",
            "POST, /api/vouchers, false",
            "POST, http://host:8080/api/vouchers/42/orders, false",
            "POST, /API/vouchers/42/orders, false"})
    void anOrderPlacementIsAPostToTheOrdersOfAVoucherByItsDigits(String method, String uri, boolean placement) {
        DefaultFullHttpRequest request =
                new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.valueOf(method), uri);
        assertThat(NettyApiMultiplexer.isOrderPlacement(request)).isEqualTo(placement);
    }
}
