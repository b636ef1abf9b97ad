package io.seckill.api;

/**
 * A request the service answers with a problem, not an order: thrown by beans, turned into problem+json by the
 * API's error handling ({@code routes/error-handling.camel.yaml}), or by the order intake itself
 * ({@link ProblemResponses#refuse}).
 */
public class ApiException extends RuntimeException {

    private final ProblemCode code;
    private final Long retryAfterSeconds;
    private final String challenge;

    public ApiException(ProblemCode code, String detail) {
        this(code, detail, null);
    }

    public ApiException(ProblemCode code, String detail, Long retryAfterSeconds) {
        this(code, detail, retryAfterSeconds, null);
    }

    private ApiException(ProblemCode code, String detail, Long retryAfterSeconds, String challenge) {
        super(detail, null, false, false);
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
        this.challenge = challenge;
    }

    /** A 401 {@link ProblemCode#UNAUTHORIZED} with the challenge that says how to log in ({@code WWW-Authenticate}). */
    public static ApiException unauthorized(String detail, String challenge) {
        return new ApiException(ProblemCode.UNAUTHORIZED, detail, null, challenge);
    }

    public static ApiException badRequest(String detail) {
        return new ApiException(ProblemCode.BAD_REQUEST, detail);
    }

    /** The ApiException a failure is or wraps (Camel and CompletableFuture wrap what a bean throws), or null. */
    public static ApiException within(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof ApiException api) {
                return api;
            }
        }
        return null;
    }

    public ProblemCode code() {
        return code;
    }

    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** The {@code WWW-Authenticate} challenge of a 401, or null. */
    public String challenge() {
        return challenge;
    }
}
