package io.seckill.operator;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.support.ApiClient;
import io.seckill.support.SeckillIntegrationTest;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.test.context.TestPropertySource;

/** With no operator password the console and Jolokia are not there, and the service runs as before. */
@ExtendWith(OutputCaptureExtension.class)
@SeckillIntegrationTest
@TestPropertySource(properties = "seckill.operator.password=")
class ConsoleOffIntegrationTests {

    @Autowired
    ApiClient api;

    @Test
    void consoleAndJolokiaAreNotThere() {
        for (String absent : List.of("/actuator/hawtio", "/actuator/hawtio/", "/actuator/hawtio/index.html",
                "/actuator/jolokia", "/actuator/jolokia/version")) {
            assertThat(api.get(absent).status()).as(absent).isEqualTo(404);
        }
    }

    @Test
    void nobodyCanLogInAndTheProbesAndTheApiStillAnswer() {
        assertThat(api.withBasicAuth("operator", "").get("/actuator/prometheus").status()).isEqualTo(401);
        assertThat(api.withBasicAuth("user", "").get("/actuator/health").status()).isEqualTo(401);
        assertThat(api.get("/actuator/health/readiness").status()).isEqualTo(200);
        assertThat(api.get("/actuator/health/liveness").status()).isEqualTo(200);
        long voucher = api.createVoucher(1);
        assertThat(api.order(voucher, 1).status()).isEqualTo(202);
    }

    @Test
    void theStartUpSaysSoAndLogsNoGeneratedPassword(CapturedOutput output) {
        // The capture starts before the Spring context (its extension is declared first), so it sees the start-up.
        assertThat(output.getAll()).contains("No operator password (seckill.operator.password): the console")
                .doesNotContainIgnoringCase("generated security password");
    }
}
