package io.seckill.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.RunningService;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An operator points the service at a routes folder of their own ({@code seckill.routes.dir}) and, with
 * {@code camel.main.routes-reload-enabled=true}, edits a route there without a restart.
 */
class RoutesFolderIntegrationTests {

    @TempDir
    Path routes;

    @Test
    void routesComeFromTheFolderAndAnEditedRouteFileIsPickedUpWithoutARestart() throws Exception {
        copyTheRoutesInto(routes);
        try (RunningService service = RunningService.start(
                "--seckill.routes.dir=" + routes, "--camel.main.routes-reload-enabled=true")) {
            CamelContext camel = service.camel();
            assertThat(camel.getRoute("order-writer").getSourceLocation())
                    .startsWith("file:" + routes.resolve("order-writer.camel.yaml") + ":");
            ProducerTemplate template = camel.createProducerTemplate();
            Path probe = routes.resolve("reload-probe.camel.yaml");

            save(probe, probeRoute("first"));

            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() ->
                    assertThat(template.requestBody("direct:reload-probe", "", String.class)).isEqualTo("first"));

            save(probe, probeRoute("second"));

            await().atMost(Duration.ofSeconds(60)).ignoreExceptions().untilAsserted(() ->
                    assertThat(template.requestBody("direct:reload-probe", "", String.class)).isEqualTo("second"));
            // The other routes stayed as they were: the service still takes orders.
            long voucher = service.api().createVoucher(1);
            assertThat(service.api().order(voucher, 1).status()).isEqualTo(202);
        }
    }

    private static void copyTheRoutesInto(Path folder) throws IOException {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(Path.of("routes"), "*.yaml")) {
            for (Path file : files) {
                Files.copy(file, folder.resolve(file.getFileName()));
            }
        }
    }

    /** As an editor saves: the whole new text at once, so the watcher never reads a half-written file. */
    private static void save(Path file, String text) throws IOException {
        Path draft = file.resolveSibling(file.getFileName() + ".draft");
        Files.writeString(draft, text);
        Files.move(draft, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private static String probeRoute(String answer) {
        return """
                - route:
                    id: reload-probe
                    from:
                      uri: direct:reload-probe
                      steps:
                        - setBody:
                            constant: "%s"
                """.formatted(answer);
    }
}
