package io.seckill.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient.Answer;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;

/**
 * The load a failover test kills Redis under: buyers' threads ordering one voucher one after another without pause,
 * each request as a new buyer (so a buyer has one answer), and a readiness probe every 50 ms. A request that gets
 * no HTTP answer at all (the client's timeout, a broken connection) is kept as a failure, not lost with its thread.
 */
public final class OrderingCrowd implements AutoCloseable {

    /** One buyer's request: its answer, or the failure that took its place, and when it was sent and answered. */
    public record Reply(Answer answer, RuntimeException failure, long sentNanos, long answeredNanos) {

        public long millis() {
            return TimeUnit.NANOSECONDS.toMillis(answeredNanos - sentNanos);
        }
    }

    /** A readiness probe's status (0: no answer) and when it came. */
    public record Probe(long answeredNanos, int status) {}

    private final ApiClient api;
    private final long voucher;
    private final Map<Long, Reply> replies = new ConcurrentHashMap<>();
    private final ConcurrentLinkedQueue<Probe> readiness = new ConcurrentLinkedQueue<>();
    private final AtomicLong buyers = new AtomicLong();
    private final AtomicLong accepted = new AtomicLong();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final ExecutorService threads;

    public OrderingCrowd(ApiClient api, long voucher, int buyerThreads) {
        this.api = api;
        this.voucher = voucher;
        this.threads = Executors.newFixedThreadPool(buyerThreads + 1);
        for (int i = 0; i < buyerThreads; i++) {
            threads.execute(() -> {
                while (!stop.get()) {
                    order();
                }
            });
        }
        threads.execute(() -> {
            while (!stop.get()) {
                int status;
                try {
                    status = api.get("/actuator/health/readiness").status();
                } catch (RuntimeException noAnswer) {
                    status = 0;
                }
                readiness.add(new Probe(System.nanoTime(), status));
                try {
                    TimeUnit.MILLISECONDS.sleep(50);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /** One order of a new buyer, recorded; null when no HTTP answer came. */
    public Answer order() {
        long buyer = buyers.incrementAndGet();
        long sent = System.nanoTime();
        try {
            Answer answer = api.order(voucher, buyer);
            replies.put(buyer, new Reply(answer, null, sent, System.nanoTime()));
            if (answer.status() == 202) {
                accepted.incrementAndGet();
            }
            return answer;
        } catch (RuntimeException noAnswer) {
            replies.put(buyer, new Reply(null, noAnswer, sent, System.nanoTime()));
            return null;
        }
    }

    /** The status of one order of a new buyer, recorded; 0 when no HTTP answer came. */
    public int orderStatus() {
        Answer answer = order();
        return answer == null ? 0 : answer.status();
    }

    /** Orders answered 202 so far. */
    public long accepted() {
        return accepted.get();
    }

    /** Each buyer's request. */
    public Map<Long, Reply> replies() {
        return Map.copyOf(replies);
    }

    /** Each buyer's answer, of the requests that got one. */
    public Map<Long, Answer> answers() {
        return replies.entrySet().stream().filter(reply -> reply.getValue().answer() != null)
                .collect(Collectors.toMap(Map.Entry::getKey, reply -> reply.getValue().answer()));
    }

    /**
     * The answers by outcome ("202", or status and problem code), once checked to be what a failover may give: every
     * request answered, only 202, 503 REDIS_UNAVAILABLE or VOUCHER_REBUILDING (each with Retry-After), or 409
     * ALREADY_ORDERED — a command the client sent again once the connection broke under it, whose script the old
     * master had run and replicated: the buyer's order stands, as a retry of the buyer's own would say. Never a 500.
     */
    public Map<String, List<Answer>> failoverAnswers() {
        assertThat(failures()).as("requests without an HTTP answer").isEmpty();
        Map<String, List<Answer>> byOutcome = answers().values().stream().collect(Collectors.groupingBy(
                answer -> answer.status() == 202 ? "202" : answer.status() + " " + answer.code()));
        assertThat(byOutcome.keySet()).as("answers").contains("202", "503 REDIS_UNAVAILABLE")
                .isSubsetOf("202", "503 REDIS_UNAVAILABLE", "503 VOUCHER_REBUILDING", "409 ALREADY_ORDERED");
        assertThat(byOutcome.values().stream().flatMap(List::stream).filter(answer -> answer.status() == 503))
                .allSatisfy(answer -> assertThat(answer.header("Retry-After")).isNotNull());
        return byOutcome;
    }

    /**
     * The buyers told their order was not taken, with their answers: a refusal (a 4xx but ALREADY_ORDERED), a
     * rebuild's 503, or a 503 REDIS_UNAVAILABLE saying nothing was done. None of them may have an order. Every other
     * buyer was told it was taken (202), stands (ALREADY_ORDERED), or may have been: Redis did not answer the script
     * (its master died under it), or took it and its replicas did not confirm it in time.
     */
    public Map<Long, Answer> toldNotTaken() {
        return answers().entrySet().stream().filter(answer -> notTaken(answer.getValue()))
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }

    private static boolean notTaken(Answer answer) {
        return answer.status() / 100 == 4 && !"ALREADY_ORDERED".equals(answer.code())
                || "VOUCHER_REBUILDING".equals(answer.code())
                || "REDIS_UNAVAILABLE".equals(answer.code())
                        && answer.json().get("detail").asText().contains("nothing was done");
    }

    /**
     * Waits until, after {@code sinceNanos} ({@link System#nanoTime}: the moment Redis was killed), a new buyer was
     * refused 503 and readiness answered 503. Asked here every 20 ms, and heard from the crowd's buyers and its probe
     * as well: on a busy machine one asker alone may answer too seldom to fall into an outage of a few seconds.
     */
    public void awaitOutageHeard(long sinceNanos, Duration deadline) {
        Set<String> heard = ConcurrentHashMap.newKeySet();
        await().atMost(deadline).pollInterval(Duration.ofMillis(20)).untilAsserted(() -> {
            int order = orderStatus();
            int ready = api.get("/actuator/health/readiness").status();
            if (order == 503 || answeredSince(sinceNanos, 503)) {
                heard.add("new buyer 503");
            }
            if (ready == 503 || readiness.stream().anyMatch(probe -> probe.status() == 503
                    && probe.answeredNanos() - sinceNanos > 0)) {
                heard.add("readiness 503");
            }
            assertThat(heard).as("last order %d, last readiness %d", order, ready).hasSize(2);
        });
    }

    private boolean answeredSince(long sinceNanos, int status) {
        return replies.values().stream().anyMatch(reply -> reply.answer() != null
                && reply.answer().status() == status && reply.answeredNanos() - sinceNanos > 0);
    }

    /** The requests that got no HTTP answer. */
    public List<Reply> failures() {
        return replies.values().stream().filter(reply -> reply.failure() != null).toList();
    }

    /** The answers of {@code /actuator/health/readiness}, in the order probed. */
    public List<Probe> readiness() {
        return List.copyOf(readiness);
    }

    @Override
    public void close() throws InterruptedException {
        stop.set(true);
        threads.shutdown();
        assertThat(threads.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    }
}
