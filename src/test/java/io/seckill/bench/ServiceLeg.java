package io.seckill.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A service a leg of bench/run.sh measures ({@link BenchRun}): the service, its API, its safepoint log, and the
 * vouchers this leg made on it (for the database check).
 */
record ServiceLeg(ServiceProcess service, VoucherApi api, Path safepointLog, List<Long> vouchers) {

    /** One shard, so every order of the run is on this stream (the contract's key layout). */
    static final String STREAM = "seckill:{s0}:orders";

    long newVoucher(String title, long stock) throws Exception {
        long id = api.create("bench " + title, stock, null);
        vouchers.add(id);
        return id;
    }

    /** What Redis says each voucher of this leg sold, as VOUCHER=ROWS arguments for Harness verify. */
    List<String> soldPerVoucher() throws Exception {
        List<String> sold = new ArrayList<>();
        for (long id : vouchers) {
            sold.add(id + "=" + api.units(id).sold());
        }
        return sold;
    }

    long redisInteger(String... command) throws IOException {
        try (RespConnection redis = service.redis()) {
            return redis.integer(command);
        }
    }

    String redisInfo(String field) throws IOException {
        try (RespConnection redis = service.redis()) {
            return ((String) redis.call("INFO", "server")).lines().filter(l -> l.startsWith(field + ":"))
                    .map(l -> l.substring(field.length() + 1).strip()).findFirst().orElse("");
        }
    }

    void appendfsync(String policy) throws IOException {
        try (RespConnection redis = service.redis()) {
            redis.call("CONFIG", "SET", "appendfsync", policy);
        }
    }

    /** The writer deletes an entry only after its row is committed: an empty stream is a written backlog. */
    void awaitStreamEmpty() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(600).toNanos();
        try (RespConnection redis = service.redis()) {
            while (redis.integer("XLEN", STREAM) != 0) {
                if (System.nanoTime() > deadline) {
                    throw new IOException("the order stream did not empty in 600 s");
                }
                Thread.sleep(200);
            }
        }
    }
}
