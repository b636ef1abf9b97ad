package io.seckill.expiry;

import io.seckill.redis.LuaScript;
import io.seckill.redis.LuaScripts;
import io.seckill.redis.RedisKeys;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.stereotype.Component;

/**
 * The unpaid-order schedule as a voucher's rebuild sees it: which cancelled orders still hold their unit (their
 * token is among the due or the cancelling orders: {@code lua/findUnreturnedUnits-2.lua}), and scheduling the
 * unpaid ones again, under the rebuild's mark ({@code lua/scheduleUnpaidOrders-3.lua}).
 */
@Component
public class UnpaidOrderSchedule {

    /** Members per script call: Lua's stack holds some thousands of arguments. */
    private static final int CHUNK = 1000;

    private final RedisKeys keys;
    @SuppressWarnings("rawtypes")
    private final LuaScript<List> findUnreturned;
    private final LuaScript<Long> schedule;

    public UnpaidOrderSchedule(LuaScripts scripts, RedisKeys keys) {
        this.keys = keys;
        this.findUnreturned = scripts.load("findUnreturnedUnits-2.lua", List.class);
        this.schedule = scripts.load("scheduleUnpaidOrders-3.lua", Long.class);
    }

    /** The members (of cancelled orders) whose unit has not gone back on sale yet, on this shard. */
    public Set<String> unreturned(int shard, Collection<String> members) {
        String stream = keys.ordersOn(shard);
        List<String> keyList = List.of(keys.dueOrdersOf(stream), keys.cancellingOrdersOf(stream));
        Set<String> found = new HashSet<>();
        List<String> all = new ArrayList<>(members);
        for (int from = 0; from < all.size(); from += CHUNK) {
            List<?> chunk = findUnreturned.run(keyList,
                    all.subList(from, Math.min(from + CHUNK, all.size())).toArray());
            if (chunk != null) {
                chunk.forEach(member -> found.add((String) member));
            }
        }
        return found;
    }

    /**
     * Schedules these unpaid orders (member → payBefore in epoch ms) while the voucher carries the rebuild's mark.
     *
     * @return false when another rebuild has marked the voucher since: its own figures stand
     */
    public boolean schedule(long voucherId, int shard, String rebuildToken, Map<String, Long> payBeforeByMember) {
        String stream = keys.ordersOn(shard);
        List<String> keyList = List.of(keys.voucherOn(shard, voucherId), keys.dueOrdersOf(stream),
                keys.cancellingOrdersOf(stream));
        List<Map.Entry<String, Long>> orders = new ArrayList<>(payBeforeByMember.entrySet());
        int from = 0;
        do {
            List<Object> args = new ArrayList<>();
            args.add(rebuildToken);
            for (Map.Entry<String, Long> order : orders.subList(from, Math.min(from + CHUNK, orders.size()))) {
                args.add(Long.toString(order.getValue()));
                args.add(order.getKey());
            }
            Long scheduled = schedule.run(keyList, args.toArray());
            if (scheduled == null || scheduled != 1) {
                return false;
            }
            from += CHUNK;
        } while (from < orders.size());
        return true;
    }
}
