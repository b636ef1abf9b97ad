package io.seckill.voucher;

import io.seckill.order.SaleViewProperties;
import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import io.seckill.redis.RedisKeys;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.springframework.stereotype.Component;

/** Replaces a marked voucher's sale state with a rebuilt one ({@code lua/rebuildVoucher-2.lua}). */
@Component
public class RebuildVoucherScript {

    private final LuaScript<Long> script;
    private final RedisKeys keys;

    private final String saleViewChannel;

    public RebuildVoucherScript(LuaScripts scripts, RedisKeys keys, SaleViewProperties saleView) {
        this.script = scripts.load("rebuildVoucher-2.lua", Long.class);
        this.keys = keys;
        this.saleViewChannel = saleView.channel();
    }

    /**
     * @param shard the shard of the bucket rebuilt (the voucher's own, of a voucher of one bucket)
     * @return true when applied, false when the bucket is no longer marked with this token
     */
    public boolean apply(Voucher voucher, int shard, String token, long remaining, Collection<Long> buyers) {
        List<Object> args = new ArrayList<>(buyers.size() + 7);
        args.add(token);
        args.add(Long.toString(remaining));
        args.add(Long.toString(voucher.beginAt().toEpochMilli()));
        args.add(voucher.endAt() == null ? "" : Long.toString(voucher.endAt().toEpochMilli()));
        args.add(Long.toString(voucher.id()));
        args.add(saleViewChannel);
        args.add(Integer.toString(voucher.buckets()));
        buyers.forEach(buyer -> args.add(Long.toString(buyer)));
        Long applied = script.run(List.of(keys.voucherOn(shard, voucher.id()), keys.buyersOn(shard, voucher.id())),
                args.toArray());
        return applied != null && applied == 1;
    }
}
