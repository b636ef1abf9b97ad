package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.seckill.support.ApiClient;
import io.seckill.support.SeckillIntegrationTest;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Written orders are announced on the Redis pub/sub channel {@code seckill:events}, as a subscriber sees them. */
@SeckillIntegrationTest
class OrderEventsIntegrationTests {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    ApiClient api;

    @Autowired
    LettuceConnectionFactory redis;

    @Value("${seckill.events.channel}")
    String channel;

    @Test
    void writtenOrderIsAnnouncedWithItsIds() throws Exception {
        long voucher = api.createVoucher(3);
        BlockingQueue<String> messages = new LinkedBlockingQueue<>();
        RedisClient client = RedisClient.create(RedisURI.create(redis.getHostName(), redis.getPort()));
        try (StatefulRedisPubSubConnection<String, String> subscriber = client.connectPubSub()) {
            subscriber.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String from, String message) {
                    messages.add(message);
                }
            });
            // SUBSCRIBE seckill:events (returns once Redis confirmed the subscription)
            subscriber.sync().subscribe(channel);

            String orderId = api.orderAccepted(voucher, 7).get(0);

            JsonNode event = await().atMost(Duration.ofSeconds(30))
                    .until(() -> eventOf(messages, orderId), Optional::isPresent).get();
            // Announced once written, in an array of the orders written together, as GET /api/orders/{orderId}
            // shows it (orderId a string: 64 bits).
            ApiClient.Answer written = api.get("/api/orders/" + orderId);
            assertThat(written.status()).isEqualTo(200);
            assertThat(event.get("orderId").isTextual()).as("orderId is a JSON string: %s", event).isTrue();
            assertThat(event).isEqualTo(written.json());
        } finally {
            client.shutdown();
        }
    }

    /** Drains what arrived so far; other tests' orders are announced on the same channel, in arrays. */
    private static Optional<JsonNode> eventOf(BlockingQueue<String> messages, String orderId) throws Exception {
        List<String> arrived = new java.util.ArrayList<>();
        messages.drainTo(arrived);
        for (String message : arrived) {
            JsonNode orders = JSON.readTree(message);
            assertThat(orders.isArray()).as("one message per write, an array: %s", message).isTrue();
            for (JsonNode event : orders) {
                if (orderId.equals(event.path("orderId").asText())) {
                    return Optional.of(event);
                }
            }
        }
        return Optional.empty();
    }
}
