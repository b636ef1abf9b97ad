package io.seckill.order;

import io.seckill.api.ProblemCode;

/** What the admission script answered, in the order of its return codes. */
public enum AdmissionOutcome {
    ACCEPTED(null, null),
    VOUCHER_NOT_FOUND(ProblemCode.VOUCHER_NOT_FOUND, "Voucher %d does not exist"),
    NOT_STARTED(ProblemCode.NOT_STARTED, "The sale of voucher %d has not started yet"),
    ENDED(ProblemCode.ENDED, "The sale of voucher %d has ended"),
    SOLD_OUT(ProblemCode.SOLD_OUT, "Voucher %d is sold out"),
    ALREADY_ORDERED(ProblemCode.ALREADY_ORDERED, "This buyer already has an order for voucher %d"),
    REBUILDING(ProblemCode.VOUCHER_REBUILDING,
            "The sale state of voucher %d is being rebuilt after Redis lost some of it; try again shortly");

    private final ProblemCode problem;
    private final String detail;

    AdmissionOutcome(ProblemCode problem, String detail) {
        this.problem = problem;
        this.detail = detail;
    }

    static AdmissionOutcome ofScriptCode(Long code) {
        if (code == null || code < 0 || code >= values().length) {
            throw new IllegalStateException("admitOrder-4.lua answered " + code);
        }
        return values()[code.intValue()];
    }

    public ProblemCode problem() {
        return problem;
    }

    String detail(long voucherId) {
        return detail.formatted(voucherId);
    }
}
