package io.seckill.refusal;

/**
 * A request the service refuses, with the reason and the words a person reads: thrown by the features, answered
 * by the API ({@code io.seckill.api.ProblemResponses}), which alone knows statuses and problem codes. Stackless:
 * in a flash crowd nearly every answer is a refusal, and a stack trace would cost more than the answer.
 */
public class Refusal extends RuntimeException {

    private final Reason reason;
    private final Long retryAfterSeconds;
    private final String challenge;

    public Refusal(Reason reason, String detail) {
        this(reason, detail, null);
    }

    /** @param retryAfterSeconds when trying again makes sense (the answer's {@code Retry-After}), or null */
    public Refusal(Reason reason, String detail, Long retryAfterSeconds) {
        this(reason, detail, retryAfterSeconds, null);
    }

    private Refusal(Reason reason, String detail, Long retryAfterSeconds, String challenge) {
        super(detail, null, false, false);
        this.reason = reason;
        this.retryAfterSeconds = retryAfterSeconds;
        this.challenge = challenge;
    }

    /** {@link Reason#NOT_LOGGED_IN}, with the challenge that says how to log in ({@code WWW-Authenticate}). */
    public static Refusal notLoggedIn(String detail, String challenge) {
        return new Refusal(Reason.NOT_LOGGED_IN, detail, null, challenge);
    }

    public static Refusal invalid(String detail) {
        return new Refusal(Reason.INVALID, detail);
    }

    /** The refusal a failure is or wraps (Camel and CompletableFuture wrap what a bean throws), or null. */
    public static Refusal within(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof Refusal refusal) {
                return refusal;
            }
        }
        return null;
    }

    public Reason reason() {
        return reason;
    }

    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** How to log in, for {@link Reason#NOT_LOGGED_IN}; otherwise null. */
    public String challenge() {
        return challenge;
    }
}
