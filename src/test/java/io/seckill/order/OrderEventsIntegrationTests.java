package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.seckill.support.ApiClient;
import io.seckill.support.EventSubscriber;
import io.seckill.support.OrderStreams;
import io.seckill.support.SeckillIntegrationTest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Written orders are announced on the Redis pub/sub channel {@code seckill:events}, as a subscriber sees them. */
@SeckillIntegrationTest
class OrderEventsIntegrationTests {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Autowired
    ApiClient api;

    @Autowired
    LettuceConnectionFactory redis;

    @Autowired
    StringRedisTemplate template;

    @Value("${seckill.events.channel}")
    String channel;

    @Test
    void writtenOrderIsAnnouncedWithItsIds() throws Exception {
        long voucher = api.createVoucher(3);
        try (EventSubscriber messages = new EventSubscriber(redis, channel)) {
            String orderId = api.orderAccepted(voucher, 7).get(0);

            JsonNode event = await().atMost(Duration.ofSeconds(30))
                    .until(() -> eventOf(messages, orderId), Optional::isPresent).get();
            // Announced once written, in an array of the orders written together, as GET /api/orders/{orderId}
            // shows it (orderId a string: 64 bits).
            ApiClient.Answer written = api.getOrder(orderId, 7);
            assertThat(written.status()).isEqualTo(200);
            assertThat(event.get("orderId").isTextual()).as("orderId is a JSON string: %s", event).isTrue();
            assertThat(event).isEqualTo(written.json());
        }
    }

    @Test
    void anOrderWrittenAgainIsNotAnnouncedAgainAndNoEmptyMessageGoesOut() throws Exception {
        long voucher = api.createVoucher(3);
        try (EventSubscriber messages = new EventSubscriber(redis, channel)) {
            String first = api.orderAccepted(voucher, 7).get(0);
            List<String> arrived = new ArrayList<>();
            await().atMost(Duration.ofSeconds(30)).until(() -> announced(messages, arrived, first) == 1);

            // The same entry once more (a redelivery after a lost acknowledgement): the writer finds it written,
            // inserts nothing, and has nothing to announce.
            OrderStreams streams = new OrderStreams(template);
            String again = streams.add(OrderStreams.order(Long.parseLong(first), voucher, 7));
            await().atMost(Duration.ofSeconds(30)).until(() -> !streams.contains(again));
            // An order after it, announced: the redelivery's turn on the channel has passed.
            String second = api.orderAccepted(voucher, 8).get(0);
            await().atMost(Duration.ofSeconds(30)).until(() -> announced(messages, arrived, second) == 1);

            assertThat(announced(messages, arrived, first)).as("announcements of %s", first).isEqualTo(1);
            assertThat(arrived).as("messages on %s", channel).noneMatch(message -> message.equals("[]"));
        }
    }

    /** Moves what arrived into {@code arrived}; how many of its messages announce the order. */
    private static long announced(EventSubscriber messages, List<String> arrived, String orderId)
            throws Exception {
        messages.drainTo(arrived);
        long times = 0;
        for (String message : arrived) {
            for (JsonNode event : JSON.readTree(message)) {
                if (orderId.equals(event.path("orderId").asText())) {
                    times++;
                }
            }
        }
        return times;
    }

    /** Drains what arrived so far; other tests' orders are announced on the same channel, in arrays. */
    private static Optional<JsonNode> eventOf(EventSubscriber messages, String orderId) throws Exception {
        List<String> arrived = new ArrayList<>();
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
