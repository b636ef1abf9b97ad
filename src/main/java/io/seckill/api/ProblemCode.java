package io.seckill.api;

/** The machine-readable codes of the contract's problem+json answers, each with its HTTP status and title. */
public enum ProblemCode {
    BAD_REQUEST(400, "Bad request"),
    VOUCHER_NOT_FOUND(404, "Voucher not found"),
    ORDER_NOT_FOUND(404, "Order not found"),
    NOT_FOUND(404, "Not found"),
    METHOD_NOT_ALLOWED(405, "Method not allowed"),
    NOT_ACCEPTABLE(406, "Not acceptable"),
    NOT_STARTED(409, "Sale not started"),
    ENDED(409, "Sale ended"),
    SOLD_OUT(409, "Sold out"),
    ALREADY_ORDERED(409, "Already ordered"),
    PAYLOAD_TOO_LARGE(413, "Payload too large"),
    UNSUPPORTED_MEDIA_TYPE(415, "Unsupported media type"),
    RATE_LIMITED(429, "Too many requests"),
    INTERNAL_ERROR(500, "Internal error"),
    UNAVAILABLE(503, "Service unavailable");

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
}
