package io.seckill.api;

/**
 * A request the service answers with a problem, not an order: thrown by beans, turned into problem+json by the
 * API's error handling ({@code routes/error-handling.camel.yaml}).
 */
public class ApiException extends RuntimeException {

    private final ProblemCode code;
    private final Long retryAfterSeconds;

    public ApiException(ProblemCode code, String detail) {
        this(code, detail, null);
    }

    public ApiException(ProblemCode code, String detail, Long retryAfterSeconds) {
        super(detail, null, false, false);
        this.code = code;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public static ApiException badRequest(String detail) {
        return new ApiException(ProblemCode.BAD_REQUEST, detail);
    }

    public ProblemCode code() {
        return code;
    }

    public Long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
