package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.support.ApiClient.Answer;
import io.seckill.support.OnNettyEngine;
import org.junit.jupiter.api.Test;

/** The order API's tests against the netty-http engine, and what is Netty's own. */
@OnNettyEngine
class NettyOrderApiIntegrationTests extends OrderApiIntegrationTests {

    /** Java's HttpClient offers an upgrade to h2c with every request: the answer is HTTP/1.1 and does not echo it. */
    @Test
    void anUpgradeOfferIsDeclinedNotEchoed() {
        long voucher = api.createVoucher(1);

        Answer accepted = api.order(voucher, 9);

        assertThat(accepted.status()).isEqualTo(202);
        assertThat(accepted.header("Connection")).isEqualToIgnoringCase("keep-alive");
        assertThat(accepted.header("Upgrade")).isNull();
    }
}
