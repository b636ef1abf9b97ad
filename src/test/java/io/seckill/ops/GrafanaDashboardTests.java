package io.seckill.ops;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * ops/grafana/seckill-dashboard.json as Grafana imports it (no Grafana here: Debian does not package it): its
 * JSON model, the Prometheus data source and the instances as variables every query follows, the panels the sale
 * needs, laid out without overlap. That every query is PromQL Prometheus answers, and names only metrics the
 * service exports, is {@link PrometheusIntegrationTests}'s to show.
 */
class GrafanaDashboardTests {

    private static final String DATASOURCE = "${datasource}";

    private final JsonNode dashboard = OpsFiles.dashboard();

    @Test
    void importableWithItsDataSourceAsAVariable() {
        assertThat(dashboard.path("uid").asText()).isEqualTo("seckill-camel");
        // Grafana assigns its own id on import.
        assertThat(dashboard.get("id").isNull()).isTrue();
        assertThat(dashboard.path("schemaVersion").asInt()).isBetween(36, 41);

        JsonNode datasource = variable("datasource");
        assertThat(datasource.path("type").asText()).isEqualTo("datasource");
        assertThat(datasource.path("query").asText()).isEqualTo("prometheus");
        JsonNode instance = variable("instance");
        assertThat(instance.path("type").asText()).isEqualTo("query");
        assertThat(instance.path("datasource").path("uid").asText()).isEqualTo(DATASOURCE);
        assertThat(instance.path("definition").asText()).isEqualTo("label_values(seckill_admissions_total, instance)");
        assertThat(instance.path("includeAll").asBoolean()).isTrue();
        assertThat(instance.path("multi").asBoolean()).isTrue();
    }

    @Test
    void everyQueryUsesTheDataSourceVariableAndFollowsTheInstancePicker() {
        for (JsonNode panel : panels()) {
            String title = panel.path("title").asText();
            assertThat(panel.path("datasource").path("uid").asText()).as(title).isEqualTo(DATASOURCE);
            assertThat(panel.path("description").asText()).as(title).isNotBlank();
            assertThat(panel.path("targets")).as(title).isNotEmpty();
            Set<String> refIds = new HashSet<>();
            for (JsonNode target : panel.path("targets")) {
                assertThat(target.path("datasource").path("uid").asText()).as(title).isEqualTo(DATASOURCE);
                assertThat(refIds.add(target.path("refId").asText())).as("%s: refId unique", title).isTrue();
                assertThat(target.path("expr").asText()).as(title).contains("instance=~\"$instance\"");
            }
        }
    }

    @Test
    void theSaleAtAGlance() {
        assertThat(panels()).extracting(panel -> panel.path("title").asText()).contains(
                "Admissions by outcome per second",
                "Accepted vs written per second",
                "Backlog: orders accepted, not yet written",
                "Pending and lag per shard",
                "202 → row latency",
                "Dead letters by reason",
                "Redis unavailable",
                "Paid, cancelled, units returned per second",
                "Oldest overdue unpaid order",
                "JVM heap",
                "GC pause time per second");
        assertThat(OpsFiles.panelExpressions()).extracting(Map.Entry::getValue)
                .anyMatch(expr -> expr.contains("histogram_quantile(0.99")
                        && expr.contains("seckill_orders_end_to_end_seconds_bucket"))
                .anyMatch(expr -> expr.contains("sum by (instance) (jvm_memory_used_bytes"));
    }

    @Test
    void panelsDoNotOverlap() {
        List<int[]> placed = new ArrayList<>();
        for (JsonNode panel : dashboard.path("panels")) {
            JsonNode grid = panel.path("gridPos");
            int[] box = {grid.path("x").asInt(), grid.path("y").asInt(), grid.path("w").asInt(),
                grid.path("h").asInt()};
            assertThat(box[0] + box[2]).as(panel.path("title").asText()).isLessThanOrEqualTo(24);
            for (int[] other : placed) {
                boolean apart = box[0] + box[2] <= other[0] || other[0] + other[2] <= box[0]
                        || box[1] + box[3] <= other[1] || other[1] + other[3] <= box[1];
                assertThat(apart).as("%s overlaps another panel", panel.path("title").asText()).isTrue();
            }
            placed.add(box);
        }
    }

    private List<JsonNode> panels() {
        List<JsonNode> panels = new ArrayList<>();
        dashboard.path("panels").forEach(panel -> {
            if (!"row".equals(panel.path("type").asText())) {
                panels.add(panel);
            }
        });
        return panels;
    }

    private JsonNode variable(String name) {
        for (JsonNode variable : dashboard.path("templating").path("list")) {
            if (name.equals(variable.path("name").asText())) {
                return variable;
            }
        }
        throw new AssertionError("No variable " + name);
    }
}
