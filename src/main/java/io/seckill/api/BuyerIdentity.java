package io.seckill.api;

import io.seckill.refusal.Refusal;
import io.seckill.refusal.RequestIds;
import java.util.List;
import org.apache.camel.Exchange;
import org.springframework.stereotype.Component;

/**
 * The buyer a request speaks for: the {@code X-User-Id} HTTP header, which the trusted gateway in front sets (the
 * contract's "Trust"). A query or form parameter of that name is the client's own say, not the gateway's: it is
 * never read, so a request with nothing else is refused as one without the header, and a header beside it wins.
 */
@Component("buyerIdentity")
public class BuyerIdentity {

    static final String HEADER = "X-User-Id";

    private final RequestIds requestIds;

    public BuyerIdentity(RequestIds requestIds) {
        this.requestIds = requestIds;
    }

    /**
     * @throws Refusal 400 BAD_REQUEST when the header is missing or not a positive 64-bit integer; several
     *         headers are read as HTTP combines them (their values joined by commas), which is no id either
     */
    public long of(Exchange request) {
        List<String> values = HttpRequests.headers(request, HEADER);
        return requestIds.positive(values.isEmpty() ? null : String.join(",", values), HEADER);
    }

    /** The same from the header's values, without a refusal: 0 when {@link #of} would refuse them. */
    static long of(List<String> values) {
        return values.size() == 1 ? RequestIds.parse(values.get(0)) : 0;
    }
}
