package io.seckill.api;

import com.fasterxml.jackson.annotation.JsonInclude;
import org.springframework.http.HttpStatus;

/** An RFC 9457 problem body plus the contract's {@code code}. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String code, String instance) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public static Problem of(ProblemCode code, String detail, String instance) {
        return new Problem("about:blank", code.title(), code.status(), detail, code.name(), instance);
    }

    /** A problem for an error status the web stack chose; the status stays what it was (a 505 stays a 505). */
    public static Problem forStatus(int status, String detail, String instance) {
        ProblemCode code = ProblemCode.forStatus(status);
        if (code.status() == status) {
            return of(code, detail, instance);
        }
        HttpStatus known = HttpStatus.resolve(status);
        String title = known == null ? code.title() : known.getReasonPhrase();
        return new Problem("about:blank", title, status, detail, code.name(), instance);
    }
}
