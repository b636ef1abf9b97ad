package io.seckill.support;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Many buyers ordering at once: every order is sent from a pool of threads, in a shuffled (but repeatable)
 * order, each to the next of the given service instances in turn.
 */
public final class FlashCrowd {

    private FlashCrowd() {}

    /** One buyer asking for one voucher. */
    public record Order(long voucherId, long userId) {}

    /** What the service answered; {@code orderId} only for a 202. */
    public record Outcome(Order order, int status, String code, String orderId, int instance) {

        public boolean accepted() {
            return status == 202;
        }
    }

    /** Buyers {@code 1..buyers} for each voucher, and buyers {@code 1..twice} a second time. */
    public static List<Order> orders(List<Long> voucherIds, int buyers, int twice) {
        List<Order> orders = new ArrayList<>();
        for (long voucherId : voucherIds) {
            for (long buyer = 1; buyer <= buyers; buyer++) {
                orders.add(new Order(voucherId, buyer));
            }
            for (long buyer = 1; buyer <= twice; buyer++) {
                orders.add(new Order(voucherId, buyer));
            }
        }
        Collections.shuffle(orders, new Random(42));
        return orders;
    }

    public static List<Outcome> send(List<Order> orders, int threads, ApiClient... instances) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Outcome>> answers = new ArrayList<>(orders.size());
            for (int i = 0; i < orders.size(); i++) {
                Order order = orders.get(i);
                int instance = i % instances.length;
                answers.add(pool.submit(() -> {
                    ApiClient.Answer answer = instances[instance].order(order.voucherId(), order.userId());
                    return new Outcome(order, answer.status(), answer.status() == 202 ? null : answer.code(),
                            answer.status() == 202 ? answer.json().get("orderId").asText() : null, instance);
                }));
            }
            List<Outcome> outcomes = new ArrayList<>(answers.size());
            for (Future<Outcome> answer : answers) {
                outcomes.add(answer.get());
            }
            return outcomes;
        } finally {
            pool.shutdownNow();
        }
    }
}
