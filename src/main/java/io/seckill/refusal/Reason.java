package io.seckill.refusal;

/**
 * Why the service refuses what it was asked, in the domain's words. Only {@code io.seckill.api} knows what each
 * becomes on the wire (an HTTP status and the contract's problem code, {@code api.ProblemCode#of}).
 */
public enum Reason {
    /** An id, a field or a body that is not what the contract describes; nothing was done. */
    INVALID,
    /** An operator's verb without (the right) login. */
    NOT_LOGGED_IN,
    /** A payment the payment gateway did not sign (or signed with another secret, or too long ago). */
    PAYMENT_SIGNATURE_INVALID,
    /** An admin verb or a payment from another host while no operator password or signing secret is set. */
    LOOPBACK_ONLY,
    VOUCHER_NOT_FOUND,
    ORDER_NOT_FOUND,
    NOT_STARTED,
    ENDED,
    SOLD_OUT,
    ALREADY_ORDERED,
    PAYMENT_EXPIRED,
    /** A payment of an order accepted but not written to the database yet. */
    NOT_CREATED_YET,
    RATE_LIMITED,
    DATABASE_UNAVAILABLE,
    /** The voucher's state in Redis is being rebuilt from the database. */
    VOUCHER_REBUILDING,
    REDIS_UNAVAILABLE,
    /** Something the request needs cannot be used now; trying again later may work. */
    UNAVAILABLE
}
