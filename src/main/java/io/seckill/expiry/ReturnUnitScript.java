package io.seckill.expiry;

import io.seckill.order.SaleViewProperties;
import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import io.seckill.redis.RedisKeys;
import java.util.List;
import org.springframework.stereotype.Component;

/** Puts a cancelled order's unit back on sale, once per order ({@code lua/returnUnit-3.lua}). */
@Component
public class ReturnUnitScript {

    private final LuaScript<Long> script;
    private final RedisKeys keys;

    private final String saleViewChannel;

    public ReturnUnitScript(LuaScripts scripts, RedisKeys keys, SaleViewProperties saleView) {
        this.script = scripts.load("returnUnit-3.lua", Long.class);
        this.keys = keys;
        this.saleViewChannel = saleView.channel();
    }

    /** What the script did, in the order of its return codes. */
    public enum Outcome {
        /** Returned already (no token): nothing changed. */
        ALREADY_RETURNED,
        RETURNED,
        /** The voucher is being rebuilt: the token stays, to be returned once the rebuild is done. */
        VOUCHER_REBUILDING
    }

    /** @param stream the order's stream: its unit goes back to the voucher's bucket on that shard */
    public Outcome returnUnit(long voucherId, String member, long userId, String stream) {
        int shard = keys.shardOfStream(stream);
        Long code = script.run(
                List.of(keys.cancellingOrdersOf(stream), keys.voucherOn(shard, voucherId), keys.buyersOn(shard, voucherId)),
                member, Long.toString(userId), Long.toString(voucherId), saleViewChannel);
        if (code == null || code < 0 || code >= Outcome.values().length) {
            throw new IllegalStateException("returnUnit-3.lua answered " + code);
        }
        return Outcome.values()[code.intValue()];
    }
}
