package io.seckill.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/** An RFC 9457 problem body plus the contract's {@code code}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String code, String instance) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public static Problem of(ProblemCode code, String detail, String instance) {
        return new Problem("about:blank", code.title(), code.status(), detail, code.name(), instance);
    }
}
