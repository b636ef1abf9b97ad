package io.seckill.voucher;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.MultiGauge;
import io.micrometer.core.instrument.Tags;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The live stock of every voucher whose sale has not ended, as gauges: {@code seckill.voucher.remaining{voucher}},
 * and for a voucher whose stock is split into buckets (docs/buckets.md) each bucket's,
 * {@code seckill.voucher.bucket.remaining{voucher,bucket}}: an operator sees a hot voucher's units spread over its
 * shards, or one bucket left alone with them. Read from Redis by route {@code voucher-stock-gauges} (one HGET per
 * bucket), not on every scrape; a voucher whose sale ended leaves the gauges at the next refresh.
 */
@Component("voucherStockGauges")
public class VoucherStockGauges {

    private static final Logger log = LoggerFactory.getLogger(VoucherStockGauges.class);
    private static final int PAGE = 500;

    private final VoucherRepository repository;
    private final Vouchers vouchers;
    private final MultiGauge remaining;
    private final MultiGauge remainingByBucket;
    private volatile boolean failing;

    public VoucherStockGauges(VoucherRepository repository, Vouchers vouchers, MeterRegistry registry) {
        this.repository = repository;
        this.vouchers = vouchers;
        this.remaining = MultiGauge.builder("seckill.voucher.remaining")
                .description("Units of a voucher on sale left in Redis, every bucket's together").register(registry);
        this.remainingByBucket = MultiGauge.builder("seckill.voucher.bucket.remaining")
                .description("Units left in one stock bucket of a voucher split into several").register(registry);
    }

    /** Reads every voucher on sale again; keeps the last figures while Redis or the database cannot be read. */
    public void refresh() {
        List<MultiGauge.Row<?>> totals = new ArrayList<>();
        List<MultiGauge.Row<?>> buckets = new ArrayList<>();
        try {
            Instant now = Instant.now();
            long afterId = 0;
            List<Voucher> page;
            do {
                page = repository.onSale(afterId, now, PAGE);
                for (Voucher voucher : page) {
                    Voucher live = vouchers.live(voucher);
                    String id = Long.toString(voucher.id());
                    totals.add(MultiGauge.Row.of(Tags.of("voucher", id), live.remaining()));
                    if (live.remainingByBucket() != null) {
                        for (int bucket = 0; bucket < live.remainingByBucket().size(); bucket++) {
                            buckets.add(MultiGauge.Row.of(Tags.of("voucher", id, "bucket", Integer.toString(bucket)),
                                    live.remainingByBucket().get(bucket)));
                        }
                    }
                    afterId = voucher.id();
                }
            } while (page.size() == PAGE);
        } catch (RuntimeException e) {
            if (!failing) {
                log.warn("Vouchers' stock gauges not refreshed ({}); they keep their last figures", e.getMessage());
                failing = true;
            }
            return;
        }
        failing = false;
        remaining.register(totals, true);
        remainingByBucket.register(buckets, true);
    }
}
