package io.seckill.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.Map;
import java.util.TreeMap;
import org.apache.camel.CamelContext;
import org.apache.camel.ProducerTemplate;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.component.micrometer.routepolicy.MicrometerRoutePolicyFactory;
import org.apache.camel.impl.DefaultCamelContext;
import org.junit.jupiter.api.Test;

/**
 * {@link RouteMetrics} keeps the meters camel-micrometer's route policy keeps: the same names, tags and counts, for
 * an exchange that succeeds, one whose failure was handled and one that failed. Both run on one Camel context, each
 * into a registry of its own.
 */
class RouteMetricsTests {

    @Test
    void theSameMetersAndCountsAsCamelsRoutePolicy() throws Exception {
        MeterRegistry camels = new SimpleMeterRegistry();
        MeterRegistry ours = new SimpleMeterRegistry();
        try (CamelContext camel = new DefaultCamelContext()) {
            MicrometerRoutePolicyFactory camelsFactory = new MicrometerRoutePolicyFactory();
            camelsFactory.setMeterRegistry(camels);
            camelsFactory.getPolicyConfiguration().setContextEnabled(false);
            camel.addRoutePolicyFactory(camelsFactory);
            camel.addRoutePolicyFactory(new RouteMetrics(ours));
            camel.addRoutes(new RouteBuilder() {
                @Override
                public void configure() {
                    from("direct:handled").routeId("handled")
                            .onException(IllegalStateException.class).handled(true).end()
                            .filter(body().isEqualTo("fail")).throwException(new IllegalStateException("handled"));
                    from("direct:failing").routeId("failing")
                            .filter(body().isEqualTo("fail")).throwException(new IllegalArgumentException("failed"));
                }
            });
            camel.start();
            ProducerTemplate producer = camel.createProducerTemplate();
            producer.sendBody("direct:handled", "ok");
            producer.sendBody("direct:handled", "ok");
            producer.sendBody("direct:handled", "fail");
            producer.send("direct:failing", exchange -> exchange.getIn().setBody("fail"));
            producer.sendBody("direct:failing", "ok");

            // Read while the routes are there: both remove their meters with the route.
            Map<String, Double> expected = counts(camels);
            assertThat(expected).containsEntry("camel.route.policy[eventType=route,kind=CamelRoute,routeId=handled] count", 3.0)
                    .containsEntry("camel.exchanges.failures.handled[eventType=route,kind=CamelRoute,routeId=handled]", 1.0)
                    .containsEntry("camel.exchanges.failed[eventType=route,kind=CamelRoute,routeId=failing]", 1.0);
            assertThat(counts(ours)).isEqualTo(expected);
        }
    }

    /**
     * Every route meter by its name and tags (the context's name left out): a timer's count, a counter's value. The
     * context's {@code app.info} gauge is one per context, in the registry of the policy that came first.
     */
    private static Map<String, Double> counts(MeterRegistry registry) {
        Map<String, Double> counts = new TreeMap<>();
        for (Meter meter : registry.getMeters()) {
            if (meter.getId().getName().equals("app.info")) {
                continue;
            }
            String id = meter.getId().getName() + meter.getId().getTags().stream()
                    .filter(tag -> !tag.getKey().equals("camelContext"))
                    .map(tag -> tag.getKey() + "=" + tag.getValue()).toList()
                    .toString().replace(", ", ",");
            if (meter instanceof Timer timer) {
                counts.put(id + " count", (double) timer.count());
            } else if (meter instanceof Counter counter) {
                counts.put(id, counter.count());
            } else {
                counts.put(id + " " + meter.getId().getType(), 0.0);
            }
        }
        return counts;
    }
}
