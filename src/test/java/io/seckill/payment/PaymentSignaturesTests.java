package io.seckill.payment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.seckill.operator.LoopbackOnly;
import io.seckill.refusal.Refusal;
import io.seckill.refusal.RequestIds;
import io.seckill.support.PaymentGateway;
import jakarta.validation.Validation;
import jakarta.validation.Validator;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The signature's edges: the 300 s either way, what a forged one may look like, a secret too short to sign with. */
class PaymentSignaturesTests {

    private static final String SECRET = "a-signing-secret-of-at-least-32-chars";

    private final PaymentSignatures signatures = new PaymentSignatures(new PaymentProperties(SECRET),
            new RequestIds(), new LoopbackOnly());
    private final PaymentGateway gateway = new PaymentGateway(SECRET);

    @Test
    void upTo300SecondsEitherWayIsAccepted() {
        Instant now = Instant.now();
        for (long skew : new long[] {-290, 0, 290}) {
            String signature = gateway.sign(now.plusSeconds(skew), "42", "7");
            assertThatCode(() -> signatures.verify(signature, 42, 7)).as("%d s", skew).doesNotThrowAnyException();
        }
        for (long skew : new long[] {-310, 310}) {
            String signature = gateway.sign(now.plusSeconds(skew), "42", "7");
            assertThatThrownBy(() -> signatures.verify(signature, 42, 7)).as("%d s", skew)
                    .isInstanceOf(Refusal.class).hasMessageContaining("300 s");
        }
    }

    @Test
    void upperCaseHexIsTheSameSignatureAndAnythingElseIsNone() {
        String valid = gateway.sign("42", "7");
        String hex = valid.substring(valid.indexOf("v1=") + 3);
        String t = valid.substring(0, valid.indexOf(','));

        assertThatCode(() -> signatures.verify(valid.replace(hex, hex.toUpperCase()), 42, 7))
                .doesNotThrowAnyException();
        for (String forged : List.of("", valid + ",v1=" + hex, valid.substring(0, valid.length() - 2),
                valid.replace("v1=", "v0="), "v1=" + hex + "," + t, t + ",v1=" + "0".repeat(64))) {
            assertThatThrownBy(() -> signatures.verify(forged, 42, 7)).as(forged).isInstanceOf(Refusal.class);
        }
    }

    @Test
    void aSecretShorterThan32CharactersFailsValidation() {
        Validator validator = Validation.buildDefaultValidatorFactory().getValidator();

        assertThat(validator.validate(new PaymentProperties("short"))).hasSize(1);
        assertThat(validator.validate(new PaymentProperties(SECRET))).isEmpty();
        assertThat(validator.validate(new PaymentProperties(null))).isEmpty();
    }
}
