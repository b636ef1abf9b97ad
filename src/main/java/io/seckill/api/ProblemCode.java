package io.seckill.api;

import io.seckill.refusal.Reason;

/** The machine-readable codes of the contract's problem+json answers, each with its HTTP status and title. */
public enum ProblemCode {
    BAD_REQUEST(400, "Bad request"),
    /** The operator's endpoints and admin verbs without (the right) login. */
    UNAUTHORIZED(401, "Unauthorized"),
    /** A payment without a valid X-Payment-Signature of the payment gateway. */
    PAYMENT_SIGNATURE_INVALID(401, "Payment signature invalid"),
    FORBIDDEN(403, "Forbidden"),
    /** An admin verb or a payment from another host while no operator password or signing secret is set. */
    LOOPBACK_ONLY(403, "Loopback only"),
    VOUCHER_NOT_FOUND(404, "Voucher not found"),
    ORDER_NOT_FOUND(404, "Order not found"),
    NOT_FOUND(404, "Not found"),
    METHOD_NOT_ALLOWED(405, "Method not allowed"),
    NOT_ACCEPTABLE(406, "Not acceptable"),
    /** A request (its headers and body) that did not arrive within seckill.api.body-deadline. */
    REQUEST_TIMEOUT(408, "Request timeout"),
    NOT_STARTED(409, "Sale not started"),
    ENDED(409, "Sale ended"),
    SOLD_OUT(409, "Sold out"),
    ALREADY_ORDERED(409, "Already ordered"),
    PAYMENT_EXPIRED(409, "Payment window expired"),
    NOT_CREATED_YET(409, "Order not created yet"),
    PAYLOAD_TOO_LARGE(413, "Payload too large"),
    UNSUPPORTED_MEDIA_TYPE(415, "Unsupported media type"),
    RATE_LIMITED(429, "Too many requests"),
    INTERNAL_ERROR(500, "Internal error"),
    DATABASE_UNAVAILABLE(503, "Database unavailable"),
    VOUCHER_REBUILDING(503, "Voucher being rebuilt"),
    REDIS_UNAVAILABLE(503, "Temporarily unavailable"),
    UNAVAILABLE(503, "Service unavailable");

    /** Codes that stand for an HTTP status as such, for errors raised by the web stack rather than by our beans. */
    private static final ProblemCode[] GENERIC = {
        BAD_REQUEST, UNAUTHORIZED, FORBIDDEN, NOT_FOUND, METHOD_NOT_ALLOWED, NOT_ACCEPTABLE, REQUEST_TIMEOUT,
        PAYLOAD_TOO_LARGE, UNSUPPORTED_MEDIA_TYPE, RATE_LIMITED, INTERNAL_ERROR, UNAVAILABLE
    };

    private final int status;
    private final String title;

    ProblemCode(int status, String title) {
        this.status = status;
        this.title = title;
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    /** What a refusal of the features is on the wire. */
    public static ProblemCode of(Reason reason) {
        return switch (reason) {
            case INVALID -> BAD_REQUEST;
            case NOT_LOGGED_IN -> UNAUTHORIZED;
            case PAYMENT_SIGNATURE_INVALID -> PAYMENT_SIGNATURE_INVALID;
            case LOOPBACK_ONLY -> LOOPBACK_ONLY;
            case VOUCHER_NOT_FOUND -> VOUCHER_NOT_FOUND;
            case ORDER_NOT_FOUND -> ORDER_NOT_FOUND;
            case NOT_STARTED -> NOT_STARTED;
            case ENDED -> ENDED;
            case SOLD_OUT -> SOLD_OUT;
            case ALREADY_ORDERED -> ALREADY_ORDERED;
            case PAYMENT_EXPIRED -> PAYMENT_EXPIRED;
            case NOT_CREATED_YET -> NOT_CREATED_YET;
            case RATE_LIMITED -> RATE_LIMITED;
            case DATABASE_UNAVAILABLE -> DATABASE_UNAVAILABLE;
            case VOUCHER_REBUILDING -> VOUCHER_REBUILDING;
            case REDIS_UNAVAILABLE -> REDIS_UNAVAILABLE;
            case UNAVAILABLE -> UNAVAILABLE;
        };
    }

    /**
     * The code of an error status the web stack answered on its own (Spring MVC, Tomcat). A status the contract
     * does not name is BAD_REQUEST, but for a 5xx that is our fault: Tomcat answers 501 (unknown transfer coding)
     * and 505 (unknown HTTP version) to requests it cannot read, which is the client's.
     */
    public static ProblemCode forStatus(int status) {
        for (ProblemCode code : GENERIC) {
            if (code.status == status) {
                return code;
            }
        }
        return status >= 500 && status != 501 && status != 505 ? INTERNAL_ERROR : BAD_REQUEST;
    }
}
