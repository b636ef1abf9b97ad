package io.seckill.payment;

import io.seckill.api.HttpRequests;
import io.seckill.operator.LoopbackOnly;
import io.seckill.refusal.Reason;
import io.seckill.refusal.Refusal;
import io.seckill.refusal.RequestIds;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.time.Clock;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.camel.Exchange;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.stereotype.Component;

/**
 * The first step of {@code POST /api/orders/{orderId}/payment}: the payment gateway's word that the buyer paid.
 * With {@code seckill.payment.signing-secret} set, the request carries {@code X-Payment-Signature:
 * t=<unix seconds>,v1=<hex HMAC-SHA256 over "<t>.<orderId>.<userId>">} (the ids in decimal, the user the
 * {@code X-User-Id}), made at most {@value #TOLERANCE_SECONDS} s before or after this instance's clock. Replaying a
 * signed payment within that window pays the same order again, which is no change. Without a secret, payments are
 * accepted from this host only ({@link LoopbackOnly}).
 */
@Component("paymentSignatures")
public class PaymentSignatures {

    static final String HEADER = "X-Payment-Signature";
    static final long TOLERANCE_SECONDS = 300;
    private static final String ALGORITHM = "HmacSHA256";
    private static final Pattern SIGNATURE = Pattern.compile("t=([0-9]{1,12}),v1=([0-9a-fA-F]{64})");
    private static final Logger log = LoggerFactory.getLogger(PaymentSignatures.class);

    private final SecretKeySpec secret;
    private final RequestIds requestIds;
    private final LoopbackOnly loopbackOnly;
    private final Clock clock;

    public PaymentSignatures(PaymentProperties payment, RequestIds requestIds, LoopbackOnly loopbackOnly) {
        this.secret = payment.signed()
                ? new SecretKeySpec(payment.signingSecret().getBytes(StandardCharsets.UTF_8), ALGORITHM) : null;
        this.requestIds = requestIds;
        this.loopbackOnly = loopbackOnly;
        this.clock = Clock.systemUTC();
        if (secret == null) {
            log.warn("No payment signing secret (seckill.payment.signing-secret): payments are accepted from this "
                    + "host only");
        }
    }

    /**
     * @throws Refusal 400 for a malformed id, 401 {@link Reason#PAYMENT_SIGNATURE_INVALID} without a
     *     valid signature, 403 from another host while there is no secret
     */
    public void check(Exchange exchange) {
        if (secret == null) {
            loopbackOnly.require(exchange, "Payments are accepted from this host only while no signing secret is set "
                    + "(seckill.payment.signing-secret)");
            return;
        }
        long orderId = requestIds.positive(exchange.getIn().getHeader("orderId", String.class), "orderId");
        long userId = requestIds.positive(exchange.getIn().getHeader("X-User-Id", String.class), "X-User-Id");
        String signature = HttpRequests.header(exchange, HEADER)
                .orElseThrow(() -> invalid("A payment needs the gateway's " + HEADER + " header"));
        verify(signature.strip(), orderId, userId);
    }

    void verify(String signature, long orderId, long userId) {
        Matcher parts = SIGNATURE.matcher(signature);
        if (!parts.matches()) {
            throw invalid(HEADER + " must be t=<unix seconds>,v1=<64 hex digits>");
        }
        long signedAt = Long.parseLong(parts.group(1));
        if (Math.abs(clock.instant().getEpochSecond() - signedAt) > TOLERANCE_SECONDS) {
            throw invalid(HEADER + " was made more than " + TOLERANCE_SECONDS + " s from now (t=" + signedAt + ")");
        }
        byte[] expected = hmac(parts.group(1) + "." + orderId + "." + userId);
        if (!MessageDigest.isEqual(expected, HexFormat.of().parseHex(parts.group(2)))) {
            throw invalid(HEADER + " does not match this payment");
        }
    }

    private byte[] hmac(String signed) {
        try {
            // A Mac is not thread-safe; making one is cheap next to the payment's database round trips.
            Mac mac = Mac.getInstance(ALGORITHM);
            mac.init(secret);
            return mac.doFinal(signed.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Every JVM has " + ALGORITHM, e);
        }
    }

    private static Refusal invalid(String detail) {
        return new Refusal(Reason.PAYMENT_SIGNATURE_INVALID, detail);
    }
}
