package io.seckill.voucher;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Where one voucher's units went, by orderId, as the streams and the database tell it: what Redis must say is
 * left ({@code stock − units}) and who bought. An order seen twice (moving from a stream to the database while
 * they were read) counts once.
 */
final class SoldUnits {

    /** orderId → buyer, for orders that hold a unit: written live, in a stream, or a dead letter but OVERSOLD. */
    private final Map<Long, Long> holdingUnit = new HashMap<>();
    /** Buyers of OVERSOLD dead letters: Redis sold them a unit the database did not have; they have bought. */
    private final Set<Long> withoutUnit = new HashSet<>();

    void holding(long orderId, long buyer) {
        holdingUnit.put(orderId, buyer);
    }

    void oversold(long buyer) {
        withoutUnit.add(buyer);
    }

    long units() {
        return holdingUnit.size();
    }

    long remaining(int stock) {
        return Math.max(0, stock - units());
    }

    /** Units held by orders other than these (the orders of the streams not written yet, say). */
    long unitsBesides(Set<Long> orderIds) {
        return holdingUnit.keySet().stream().filter(orderId -> !orderIds.contains(orderId)).count();
    }

    Set<Long> orderIds() {
        return holdingUnit.keySet();
    }

    Set<Long> buyers() {
        Set<Long> buyers = new HashSet<>(holdingUnit.values());
        buyers.addAll(withoutUnit);
        return buyers;
    }
}
