package io.seckill.order;

import io.seckill.refusal.Reason;

/** What the admission script answered, in the order of its return codes. */
public enum AdmissionOutcome {
    ACCEPTED(null, null),
    VOUCHER_NOT_FOUND(Reason.VOUCHER_NOT_FOUND, "Voucher %d does not exist"),
    NOT_STARTED(Reason.NOT_STARTED, "The sale of voucher %d has not started yet"),
    ENDED(Reason.ENDED, "The sale of voucher %d has ended"),
    SOLD_OUT(Reason.SOLD_OUT, "Voucher %d is sold out"),
    ALREADY_ORDERED(Reason.ALREADY_ORDERED, "This buyer already has an order for voucher %d"),
    REBUILDING(Reason.VOUCHER_REBUILDING,
            "The sale state of voucher %d is being rebuilt after Redis lost some of it; try again shortly"),
    /** Its detail names the buyer and the wait: {@link io.seckill.ratelimit.RateLimits}. */
    BUYER_RATE_LIMITED(Reason.RATE_LIMITED, null),
    ADDRESS_RATE_LIMITED(Reason.RATE_LIMITED, null),
    /** The voucher's stock is in another number of buckets than the request took it to be: never a buyer's answer. */
    OTHER_BUCKETS(null, null);

    /** By script code; {@code values()} would copy the array for every answer. */
    private static final AdmissionOutcome[] BY_CODE = values();

    private final Reason reason;
    /** The detail's text before and after the voucher id: formatting it with {@code %d} cost 4 % of a refusal's CPU. */
    private final String beforeVoucher;
    private final String afterVoucher;

    AdmissionOutcome(Reason reason, String detail) {
        this.reason = reason;
        int at = detail == null ? -1 : detail.indexOf("%d");
        this.beforeVoucher = at < 0 ? detail : detail.substring(0, at);
        this.afterVoucher = at < 0 ? "" : detail.substring(at + 2);
    }

    static AdmissionOutcome ofScriptCode(Object code) {
        if (!(code instanceof Long number) || number < 0 || number >= BY_CODE.length) {
            throw new IllegalStateException("admitOrder-6.lua answered " + code);
        }
        return BY_CODE[number.intValue()];
    }

    public Reason reason() {
        return reason;
    }

    String detail(long voucherId) {
        return beforeVoucher + voucherId + afterVoucher;
    }
}
