package io.seckill.api;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.List;
import java.util.UUID;
import org.apache.camel.Exchange;
import org.springframework.stereotype.Component;

/**
 * The self warm-up's order requests (io.seckill.warmup.WarmUp), told apart from buyers', and whether the API is
 * open to buyers yet. The warm-up orders from three vouchers no buyer can create ({@link #ON_SALE}, {@link #SOLD_OUT},
 * {@link #OPENING}: the largest ids), with this process's random token in {@value #HEADER}; such a request is admitted
 * on the warm-up's keys of its own. Until the warm-up has finished, every other API request is answered 503
 * UNAVAILABLE, as while the routes start (the engines' gates ask {@link #open}).
 */
@Component
public class WarmUpRequests {

    public static final String HEADER = "X-Seckill-Warm-Up";
    /** The warm-up's voucher with units: its orders are accepted. */
    public static final long ON_SALE = Long.MAX_VALUE;
    /** The warm-up's sold-out voucher: its orders are refused, from memory once the view knows it. */
    public static final long SOLD_OUT = Long.MAX_VALUE - 1;
    /**
     * The warm-up's voucher whose sale starts again and again: refused NOT_STARTED, then accepted from its start,
     * then sold out, so that the path through a sale's start is compiled before a buyer's sale starts.
     */
    public static final long OPENING = Long.MAX_VALUE - 2;
    /** The warm-up's vouchers whose orders are accepted, and written by its writer. */
    public static final List<Long> ACCEPTING = List.of(ON_SALE, OPENING);

    private final byte[] token = UUID.randomUUID().toString().getBytes(StandardCharsets.US_ASCII);
    private volatile boolean finished;

    public String token() {
        return new String(token, StandardCharsets.US_ASCII);
    }

    /** The API is open to every request from now on. */
    public void finished() {
        finished = true;
    }

    /** Whether a request carrying this {@value #HEADER} value (null: none) may reach the API's routes now. */
    public boolean open(String warmUpHeader) {
        return finished || carriesToken(warmUpHeader);
    }

    /** Whether this order request is the warm-up's own: one of its vouchers, and its token in the HTTP header. */
    public boolean isWarmUp(Exchange exchange, long voucherId) {
        return voucherId >= OPENING && isWarmUp(HttpRequests.headers(exchange, HEADER), voucherId);
    }

    /** The same, given the request's {@value #HEADER} values. */
    public boolean isWarmUp(List<String> warmUpHeaders, long voucherId) {
        return voucherId >= OPENING && warmUpHeaders.size() == 1 && carriesToken(warmUpHeaders.get(0));
    }

    private boolean carriesToken(String value) {
        return value != null && MessageDigest.isEqual(token, value.getBytes(StandardCharsets.US_ASCII));
    }
}
