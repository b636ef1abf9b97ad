package io.seckill.order;

/**
 * An accepted order the database refuses for good: it needs a person (a refund, an apology), so it becomes a dead
 * letter whose {@code reason} is the {@link Reason}'s name, never an acknowledgement. The message is that name
 * alone, as the dead-letter route records it; the details are logged where the order was refused.
 */
public class OrderRejectedException extends RuntimeException {

    /** Why the database refused an order. */
    public enum Reason {
        /** The voucher has no unit left in the database (Redis sold one it did not have). */
        OVERSOLD,
        /** The buyer has another live order for this voucher (Redis forgot the buyer). */
        DUPLICATE_BUYER,
        /** The orderId is in the database with another voucher or buyer. */
        ORDER_ID_CONFLICT,
        /** The database knows no such voucher. */
        UNKNOWN_VOUCHER
    }

    private final Reason reason;

    public OrderRejectedException(Reason reason) {
        super(reason.name(), null, false, false);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
