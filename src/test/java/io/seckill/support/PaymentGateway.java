package io.seckill.support;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.time.Instant;
import java.util.HexFormat;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * The payment gateway in front of the service, as far as the service sees it: it signs each payment with the secret
 * both share, {@code X-Payment-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 over "<t>.<orderId>.<userId>">}.
 */
public record PaymentGateway(String secret) {

    /** The header value for a payment of the order by the buyer, signed now. */
    public String sign(String orderId, String userId) {
        return sign(Instant.now(), orderId, userId);
    }

    public String sign(Instant at, String orderId, String userId) {
        String t = Long.toString(at.getEpochSecond());
        return "t=" + t + ",v1=" + hmac(t + "." + orderId + "." + userId);
    }

    private String hmac(String signed) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(signed.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
