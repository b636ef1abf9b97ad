package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.redis.RedisKeys;
import io.seckill.support.ApiClient.Answer;
import io.seckill.support.ApiClient;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import io.seckill.support.VoucherStreams;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * A flash sale as it happens: far more buyers than units, every buyer clicking twice, all at once, over HTTP.
 * Each unit goes to one buyer, every order reaches the database once, and every other buyer hears the reason.
 */
@SeckillIntegrationTest
class FlashCrowdIntegrationTests {

    private static final Logger log = LoggerFactory.getLogger(FlashCrowdIntegrationTests.class);

    private static final int STOCK = 100;
    private static final int BUYERS = 1_000;
    private static final int REQUESTS_PER_BUYER = 2;
    private static final int CLIENT_THREADS = 50;

    private static final String ACCEPTED = "202";
    private static final String ALREADY_ORDERED = "409 ALREADY_ORDERED";
    private static final String SOLD_OUT = "409 SOLD_OUT";

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Autowired
    VoucherStreams streams;

    @Autowired
    RedisKeys keys;

    @Test
    void everyUnitGoesToOneBuyerOnceAndEveryOtherRequestHearsWhy() throws Exception {
        long voucher = api.createVoucher(STOCK);
        List<Long> buyerOfEachRequest = new ArrayList<>();
        for (long buyer = 1; buyer <= BUYERS; buyer++) {
            for (int click = 0; click < REQUESTS_PER_BUYER; click++) {
                buyerOfEachRequest.add(buyer);
            }
        }
        // A buyer's two clicks land anywhere in the crowd: together, far apart, either first.
        Collections.shuffle(buyerOfEachRequest, new Random(20261121));

        long started = System.nanoTime();
        List<Request> answers = sendAll(voucher, buyerOfEachRequest);
        long millis = (System.nanoTime() - started) / 1_000_000;
        log.info("Flash crowd: {} order requests from {} threads answered in {} ms", answers.size(), CLIENT_THREADS,
                millis);

        Map<Long, List<String>> outcomesByBuyer = new TreeMap<>();
        Set<String> acceptedOrderIds = new HashSet<>();
        for (Request request : answers) {
            outcomesByBuyer.computeIfAbsent(request.buyer(), b -> new ArrayList<>()).add(outcome(request.answer()));
            if (request.answer().status() == 202) {
                acceptedOrderIds.add(request.answer().json().get("orderId").asText());
            }
        }
        Set<Long> winners = outcomesByBuyer.entrySet().stream().filter(e -> e.getValue().contains(ACCEPTED))
                .map(Map.Entry::getKey).collect(Collectors.toSet());

        assertThat(acceptedOrderIds).hasSize(STOCK);
        assertThat(winners).hasSize(STOCK);
        // The script checks the buyer before the stock: a winner's other click is ALREADY_ORDERED whichever came
        // first, and a buyer who got nothing was SOLD_OUT both times (stock never comes back).
        assertThat(outcomesByBuyer).hasSize(BUYERS).allSatisfy((buyer, outcomes) -> {
            List<String> sorted = outcomes.stream().sorted().toList();
            if (winners.contains(buyer)) {
                assertThat(sorted).as("buyer %d, who got a unit", buyer).containsExactly(ACCEPTED, ALREADY_ORDERED);
            } else {
                assertThat(sorted).as("buyer %d, who got none", buyer).containsExactly(SOLD_OUT, SOLD_OUT);
            }
        });

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() ->
                assertThat(stores.orderRows(voucher)).isEqualTo(STOCK));
        assertThat(stores.distinctBuyers(voucher)).isEqualTo(STOCK);
        assertThat(stores.jdbc().queryForList("SELECT user_id FROM orders WHERE voucher_id = ?", Long.class, voucher))
                .containsExactlyInAnyOrderElementsOf(winners);
        assertThat(stores.jdbc().queryForList("SELECT CAST(order_id AS VARCHAR(20)) FROM orders WHERE voucher_id = ?",
                String.class, voucher)).containsExactlyInAnyOrderElementsOf(acceptedOrderIds);
        assertThat(api.get("/api/vouchers/" + voucher).json().get("remaining").asLong()).isZero();
        // SMEMBERS seckill:{s0}:buyers:<id>
        assertThat(stores.redis().opsForSet().members(keys.buyers(voucher)))
                .containsExactlyInAnyOrderElementsOf(winners.stream().map(String::valueOf).toList());
        // XPENDING, XRANGE: every entry acknowledged and deleted once its order was written
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> {
            assertThat(streams.pendingOf(voucher)).isEmpty();
            assertThat(streams.entriesOf(voucher)).isEmpty();
        });
        assertThat(streams.deadLettersOf(voucher)).isEmpty();
    }

    private List<Request> sendAll(long voucher, List<Long> buyers) throws Exception {
        ExecutorService clients = Executors.newFixedThreadPool(CLIENT_THREADS);
        try {
            List<Callable<Request>> requests = buyers.stream()
                    .map(buyer -> (Callable<Request>) () -> new Request(buyer, api.order(voucher, buyer)))
                    .toList();
            List<Request> answers = new ArrayList<>(requests.size());
            for (Future<Request> answer : clients.invokeAll(requests)) {
                answers.add(answer.get());
            }
            return answers;
        } finally {
            clients.shutdownNow();
        }
    }

    private static String outcome(Answer answer) {
        if (answer.status() == 202) {
            return ACCEPTED;
        }
        return answer.status() + " " + (answer.body().startsWith("{") ? answer.code() : answer.body());
    }

    private record Request(long buyer, Answer answer) {}
}
