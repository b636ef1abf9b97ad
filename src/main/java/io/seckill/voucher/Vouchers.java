package io.seckill.voucher;

import io.seckill.redis.RedisKeys;
import io.seckill.refusal.Reason;
import io.seckill.refusal.Refusal;
import io.seckill.refusal.RequestIds;
import java.util.ArrayList;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.annotation.Transactional;

/** Creates vouchers (database, then Redis, before the 201) and reads them back with their live stock. */
@Component("vouchers")
public class Vouchers {

    private final VoucherRequests requests;
    private final VoucherRepository repository;
    private final LoadVoucherScript loadVoucher;
    private final RequestIds requestIds;
    private final StringRedisTemplate redis;
    private final RedisKeys keys;

    public Vouchers(VoucherRequests requests, VoucherRepository repository, LoadVoucherScript loadVoucher,
            RequestIds requestIds, StringRedisTemplate redis, RedisKeys keys) {
        this.requests = requests;
        this.repository = repository;
        this.loadVoucher = loadVoucher;
        this.requestIds = requestIds;
        this.redis = redis;
        this.keys = keys;
    }

    /** The row commits only once Redis holds the sale state: a voucher is never in one place and not the other. */
    @Transactional
    public Voucher create(String body) {
        Voucher voucher = repository.insert(requests.parse(body));
        if (!loadVoucher.load(voucher)) {
            throw new IllegalStateException("Redis already holds state for voucher " + voucher.id()
                    + " that the database does not know: the two stores are from different deployments");
        }
        return voucher;
    }

    public Voucher find(String idText) {
        long id = requestIds.positive(idText, "voucher id");
        Voucher voucher = repository.find(id)
                .orElseThrow(() -> new Refusal(Reason.VOUCHER_NOT_FOUND, "Voucher " + id + " does not exist"));
        return live(voucher);
    }

    /** The voucher with its live stock, bucket by bucket, from Redis. */
    public Voucher live(Voucher voucher) {
        List<Long> byBucket = new ArrayList<>(voucher.buckets());
        for (int bucket = 0; bucket < voucher.buckets(); bucket++) {
            // HGET <bucket> stock
            Object stock = redis.opsForHash().get(keys.voucherOn(keys.bucketShard(voucher.id(), bucket), voucher.id()),
                    "stock");
            byBucket.add(stock == null ? 0 : Long.parseLong(stock.toString()));
        }
        return voucher.withRemaining(byBucket);
    }
}
