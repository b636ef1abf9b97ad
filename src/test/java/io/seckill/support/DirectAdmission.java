package io.seckill.support;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.core.io.ClassPathResource;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Accepts orders the way the API does, by running {@code lua/admitOrder-6.lua} (EVALSHA, rate limits off), but
 * pipelined from the test: thousands of accepted orders in a second, without HTTP. Keys are shard 0's
 * ({@code seckill:{s0}:…}).
 */
public class DirectAdmission {

    private final StringRedisTemplate redis;
    private final String sha;
    private final long paymentTimeoutMillis;

    public DirectAdmission(StringRedisTemplate redis) {
        this(redis, Duration.ofMinutes(15));
    }

    /** @param paymentTimeout the window of the orders it admits, as seckill.order.payment-timeout gives it */
    public DirectAdmission(StringRedisTemplate redis, Duration paymentTimeout) {
        this.redis = redis;
        this.paymentTimeoutMillis = paymentTimeout.toMillis();
        try {
            String script = new ClassPathResource("lua/admitOrder-6.lua").getContentAsString(StandardCharsets.UTF_8);
            // SCRIPT LOAD
            this.sha = redis.execute((RedisCallback<String>) connection -> connection.scriptingCommands()
                    .scriptLoad(script.getBytes(StandardCharsets.UTF_8)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Orders {@code firstOrderId + i} by buyers {@code firstBuyer + i}, for i in [0, count).
     *
     * @return the order ids the script accepted (answered 0)
     */
    public List<Long> admit(long voucherId, long firstOrderId, long firstBuyer, int count) {
        byte[][] keys = {bytes("seckill:{s0}:voucher:" + voucherId), bytes("seckill:{s0}:buyers:" + voucherId),
                bytes("seckill:{s0}:orders"), bytes("seckill:{s0}:orders:due"),
                bytes("seckill:{s0}:rate-limit:buyer:direct"), bytes("seckill:{s0}:rate-limit:address:direct")};
        byte[] paymentTimeout = bytes(Long.toString(paymentTimeoutMillis));
        byte[] off = bytes("0");
        // EVALSHA sha 6 voucher buyers orders due buyerBucket addressBucket
        //         orderId voucherId userId paymentTimeout 0 0 0 0 0 (no rate limits), pipelined
        List<Object> answers = redis.executePipelined((RedisCallback<Object>) connection -> {
            for (int i = 0; i < count; i++) {
                connection.scriptingCommands().evalSha(sha, ReturnType.MULTI, keys.length, keys[0], keys[1], keys[2],
                        keys[3], keys[4], keys[5], bytes(Long.toString(firstOrderId + i)),
                        bytes(Long.toString(voucherId)), bytes(Long.toString(firstBuyer + i)), paymentTimeout, off,
                        off, off, off, off);
            }
            return null;
        });
        List<Long> accepted = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            if (List.of(0L).equals(answers.get(i))) {
                accepted.add(firstOrderId + i);
            }
        }
        return accepted;
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
