package io.seckill.support;

import io.seckill.api.ApiListener;
import io.seckill.operator.OperatorProperties;
import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Lazy;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Beans the integration tests share: an HTTP client for the API, a snapshot of both stores and a look into the
 * orders streams.
 */
@TestConfiguration(proxyBeanMethods = false)
public class TestSupport {

    @Bean
    @Lazy
    ApiClient apiClient(@LocalServerPort int port, OperatorProperties operator,
            @Value("${seckill.payment.signing-secret:}") String paymentSecret, ObjectProvider<ApiListener> netty) {
        String tomcat = "http://127.0.0.1:" + port;
        ApiListener api = netty.getIfAvailable();
        return new ApiClient(api == null ? tomcat : "http://127.0.0.1:" + api.port(), tomcat, operator.username(),
                operator.password()).signingPaymentsWith(paymentSecret);
    }

    @Bean
    Stores stores(StringRedisTemplate redis, JdbcTemplate jdbc) {
        return new Stores(redis, jdbc);
    }

    @Bean
    VoucherStreams voucherStreams(StringRedisTemplate redis, RedisKeys keys, StreamProperties stream) {
        return new VoucherStreams(redis, keys, stream);
    }
}
