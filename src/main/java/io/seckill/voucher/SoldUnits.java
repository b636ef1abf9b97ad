package io.seckill.voucher;

import io.seckill.order.OrderView;
import io.seckill.redis.RedisKeys;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * Where one voucher's units went, by orderId, as the streams and then the database tell it: what Redis must say is
 * left ({@code stock − units}), who bought, and which unpaid orders must be due for expiry. An order's row, once
 * written, decides over its stream entry (an order moving from a stream to the database while they were read
 * counts once): a live row holds a unit; a cancelled one holds it until its unit is returned (its token still
 * scheduled, {@link #unreturned}); an entry without a row holds one.
 */
final class SoldUnits {

    private record Order(long buyer, Long payBefore) {}

    /** Orders in the order or dead-letter streams (OVERSOLD dead letters aside). */
    private final Map<Long, Order> queued = new HashMap<>();
    /** Written orders that hold a unit: live, or cancelled with the unit not returned yet. */
    private final Map<Long, Order> holdingRows = new HashMap<>();
    /** Cancelled rows, orderId → buyer, until {@link #unreturned} says which still hold their unit. */
    private final Map<Long, Long> cancelledRows = new HashMap<>();
    /** Every orderId the database holds for this voucher. */
    private final Set<Long> written = new HashSet<>();
    /** Buyers of OVERSOLD dead letters: Redis sold them a unit the database did not have; they have bought. */
    private final Set<Long> withoutUnit = new HashSet<>();
    /** OVERSOLD dead letters stay scheduled (a replay may write them): member → payBefore. */
    private final Map<String, Long> oversoldUnpaid = new HashMap<>();

    void queued(long orderId, long buyer, Long payBefore) {
        queued.put(orderId, new Order(buyer, payBefore));
    }

    void oversold(long orderId, long buyer, Long payBefore) {
        withoutUnit.add(buyer);
        if (payBefore != null) {
            oversoldUnpaid.put(RedisKeys.unpaidOrder(orderId, buyer), payBefore);
        }
    }

    void row(long orderId, long buyer, String status, Long payBefore) {
        written.add(orderId);
        if (OrderView.CANCELLED.equals(status)) {
            cancelledRows.put(orderId, buyer);
        } else {
            holdingRows.put(orderId, new Order(buyer, OrderView.CREATED.equals(status) ? payBefore : null));
        }
    }

    /** The cancelled rows as unpaid-order members, to ask which still hold their unit. */
    Set<String> cancelledMembers() {
        Set<String> members = new HashSet<>();
        cancelledRows.forEach((orderId, buyer) -> members.add(RedisKeys.unpaidOrder(orderId, buyer)));
        return members;
    }

    /** These cancelled rows (as members) have not had their unit returned: they hold it still. */
    void unreturned(Set<String> members) {
        cancelledRows.forEach((orderId, buyer) -> {
            if (members.contains(RedisKeys.unpaidOrder(orderId, buyer))) {
                holdingRows.put(orderId, new Order(buyer, null));
            }
        });
    }

    long units() {
        return unitHolders().size();
    }

    long remaining(int stock) {
        return Math.max(0, stock - units());
    }

    /** Units held by queued orders other than these (the orders of the streams not written yet, say). */
    long unitsBesides(Set<Long> orderIds) {
        return queued.keySet().stream().filter(orderId -> !orderIds.contains(orderId)).count();
    }

    /** The orders of the streams, orderId → buyer. */
    Map<Long, Long> queuedBuyers() {
        Map<Long, Long> buyers = new HashMap<>();
        queued.forEach((orderId, order) -> buyers.put(orderId, order.buyer()));
        return buyers;
    }

    Set<Long> buyers() {
        Set<Long> buyers = new HashSet<>();
        unitHolders().values().forEach(order -> buyers.add(order.buyer()));
        buyers.addAll(withoutUnit);
        return buyers;
    }

    /** The orders to be due for expiry (member → payBefore): unpaid rows, and queued orders not written yet. */
    Map<String, Long> unpaid() {
        Map<String, Long> unpaid = new HashMap<>(oversoldUnpaid);
        unitHolders().forEach((orderId, order) -> {
            if (order.payBefore() != null) {
                unpaid.put(RedisKeys.unpaidOrder(orderId, order.buyer()), order.payBefore());
            }
        });
        return unpaid;
    }

    private Map<Long, Order> unitHolders() {
        Map<Long, Order> holders = new HashMap<>(holdingRows);
        queued.forEach((orderId, order) -> {
            if (!written.contains(orderId)) {
                holders.put(orderId, order);
            }
        });
        return holders;
    }
}
