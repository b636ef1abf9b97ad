package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import io.netty.channel.EventLoopGroup;
import io.seckill.support.ApiClient;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.OnNettyEngine;
import io.seckill.support.SeckillIntegrationTest;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.camel.CamelContext;
import org.apache.camel.component.netty.http.NettyHttpEndpoint;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.test.context.TestPropertySource;

/**
 * The netty-http engine with one I/O thread for Netty's server and the Redis client ({@link SharedIoThreads}): every
 * Redis connection and every API connection on it, and every verb still answered — a verb's route that waits for
 * Redis (creating and reading a voucher, a payment, a lookup) waits on Camel's worker pool, never on that thread.
 */
@SeckillIntegrationTest
@OnNettyEngine
@TestPropertySource(properties = "seckill.api.io-threads=1")
class NettySharedIoThreadsIntegrationTests {

    @Autowired
    ApiClient api;

    @Autowired
    CamelContext camel;

    @Autowired
    EventLoopGroup apiIoThreads;

    @Autowired
    LettuceConnectionFactory redis;

    @Autowired
    RedisClusterAsyncCommands<String, String> asyncScriptCommands;

    @Test
    void theApiAndEveryRedisConnectionDoTheirIoOnTheOneThread() throws Exception {
        Thread io = apiIoThreads.submit(Thread::currentThread).get(5, TimeUnit.SECONDS);

        assertThat(io.getName()).startsWith("seckill-io-");
        assertThat(camel.getEndpoints()).filteredOn(NettyHttpEndpoint.class::isInstance).isNotEmpty()
                .allSatisfy(endpoint -> assertThat(((NettyHttpEndpoint) endpoint).getConfiguration().getWorkerGroup())
                        .isSameAs(apiIoThreads));
        assertThat(redis.getClientResources().eventLoopGroupProvider().allocate(apiIoThreads.getClass()))
                .isSameAs(apiIoThreads);
        // The order requests' own connection: its replies are read, and their futures completed, on that thread. A
        // BLPOP that waits a second on a key nobody writes, so the callback is in place before the reply comes.
        Thread replied = asyncScriptCommands.blpop(1, "seckill-test:shared-io:nothing").toCompletableFuture()
                .thenApply(nothing -> Thread.currentThread()).get(5, TimeUnit.SECONDS);
        assertThat(replied).isSameAs(io);
    }

    @Test
    void everyVerbIsAnsweredWithOneIoThread() {
        long voucher = api.createVoucher(2);

        Answer accepted = api.order(voucher, 41);
        assertThat(accepted.status()).isEqualTo(202);
        assertThat(api.order(voucher, 41).json().get("code").asText()).isEqualTo("ALREADY_ORDERED");
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isEqualTo(1);
        String orderId = accepted.json().get("orderId").asText();
        await().atMost(Duration.ofSeconds(30)).until(() -> api.getOrder(orderId, 41).status() == 200);
        Answer paid = api.pay(orderId, 41);
        assertThat(paid.status()).isEqualTo(200);
        assertThat(paid.json().get("status").asText()).isEqualTo("PAID");
        assertThat(api.get("/actuator/health/readiness").status()).isEqualTo(200);
    }
}
