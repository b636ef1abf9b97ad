package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The drain's backlog: ORDERS orders admitted straight into the service's Redis with its own admission script
 * ({@code EVALSHA}, pipelined as redis-cli --pipe did), while the writer is stopped. Ids 8000000000000000001… (above
 * any id the service hands out), buyers 1…N, the service's own keys, so the writer drains them as its own.
 */
final class BacklogAdmission {

    /** Commands in flight at a time: enough to keep Redis busy, few enough to keep the replies' buffer small. */
    private static final int WINDOW = 10_000;

    private BacklogAdmission() {
    }

    /** The script's keys for VOUCHER as the service passes them, with rate-limit keys of the bench's own (off). */
    static List<String> keys(long voucher) {
        return List.of("seckill:{s0}:voucher:" + voucher, "seckill:{s0}:buyers:" + voucher, "seckill:{s0}:orders",
                "seckill:{s0}:orders:due", "seckill:{s0}:rate-limit:buyer:bench",
                "seckill:{s0}:rate-limit:address:bench");
    }

    /** The order id of backlog order N (from 1): "8" and N in 18 digits. */
    static String orderId(long n) {
        return "8" + String.format("%018d", n);
    }

    static void admit(ServiceProcess service, Path script, long voucher, int orders, long paymentWindowMillis,
            Path log) throws IOException {
        long errors = 0;
        try (RespConnection redis = service.redis()) {
            String sha = RedisBenchmark.load(redis, script);
            List<String> head = new ArrayList<>(List.of("EVALSHA", sha, "6"));
            head.addAll(keys(voucher));
            List<String[]> batch = new ArrayList<>(WINDOW);
            for (long n = 1; n <= orders; n++) {
                List<String> command = new ArrayList<>(head);
                command.addAll(List.of(orderId(n), String.valueOf(voucher), String.valueOf(n),
                        String.valueOf(paymentWindowMillis)));
                command.addAll(RedisBenchmark.NO_LIMITS);
                batch.add(command.toArray(String[]::new));
                if (batch.size() == WINDOW || n == orders) {
                    errors += redis.pipelined(batch);
                    batch.clear();
                }
            }
        }
        Files.writeString(log, "backlog_orders=" + orders + "\nbacklog_errors=" + errors + "\n");
        if (errors > 0) {
            throw new IOException(errors + " of the backlog's scripts failed: " + log);
        }
    }
}
