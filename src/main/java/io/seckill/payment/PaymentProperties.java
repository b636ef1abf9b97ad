package io.seckill.payment;

import jakarta.validation.constraints.AssertTrue;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.validation.annotation.Validated;

/**
 * How the payment gateway in front of the service proves that it reports a payment.
 *
 * @param signingSecret the HMAC-SHA256 key the gateway signs each payment with ({@code X-Payment-Signature}); none
 *                      means payments are accepted from this host only
 */
@Validated
@ConfigurationProperties("seckill.payment")
public record PaymentProperties(String signingSecret) {

    /** Shorter than SHA-256's output, an HMAC key is the weak point of the signature. */
    static final int MIN_SECRET_LENGTH = 32;

    /** Whether payments must be signed. */
    public boolean signed() {
        return signingSecret != null && !signingSecret.isBlank();
    }

    @AssertTrue(message = "seckill.payment.signing-secret must be at least " + MIN_SECRET_LENGTH + " characters")
    public boolean isSigningSecretLongEnough() {
        return !signed() || signingSecret.length() >= MIN_SECRET_LENGTH;
    }
}
