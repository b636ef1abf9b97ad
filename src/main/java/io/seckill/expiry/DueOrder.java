package io.seckill.expiry;

import io.seckill.order.OrderView;

/**
 * One unpaid order whose window ran out, as it goes through {@code routes/order-expiry.camel.yaml}: taken under a
 * lease, then settled by what its row says.
 *
 * @param member its member of {@code …:orders:due} and {@code …:orders:cancelling}, {@code <orderId>:<userId>}
 * @param stream the orders stream of its shard (which names the due and cancelling sets)
 * @param row its row, once read: null when there is none yet, or the row under its id is another order
 * @param unitReturned whether this settlement put its unit back on sale (what the order events announce)
 */
public record DueOrder(String member, String stream, OrderView row, boolean unitReturned) {

    static DueOrder taken(String member, String stream) {
        return new DueOrder(member, stream, null, false);
    }

    public long orderId() {
        return Long.parseLong(member.substring(0, member.indexOf(':')));
    }

    public long userId() {
        return Long.parseLong(member.substring(member.indexOf(':') + 1));
    }

    DueOrder withRow(OrderView row) {
        return new DueOrder(member, stream, row, unitReturned);
    }

    DueOrder withUnitReturned() {
        return new DueOrder(member, stream, row, true);
    }
}
