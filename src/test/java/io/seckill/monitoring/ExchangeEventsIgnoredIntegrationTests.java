package io.seckill.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.support.ApiClient;
import io.seckill.support.SeckillIntegrationTest;
import org.apache.camel.CamelContext;
import org.apache.camel.component.micrometer.eventnotifier.MicrometerRouteEventNotifier;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;

/**
 * No event notifier of the service takes exchange events, so Camel makes no event per message sent
 * ({@link ExchangeEventsIgnored}), and camel-micrometer's route meters are still scraped.
 */
@SeckillIntegrationTest
class ExchangeEventsIgnoredIntegrationTests {

    @Autowired
    CamelContext camel;

    @Autowired
    ApiClient api;

    @Test
    void noNotifierTakesExchangeEventsAndTheRouteMetersRemain() {
        assertThat(camel.getManagementStrategy().getEventNotifiers())
                .anySatisfy(notifier -> assertThat(notifier).isInstanceOf(MicrometerRouteEventNotifier.class))
                .allSatisfy(notifier -> assertThat(notifier.isDisabled() || notifier.isIgnoreExchangeEvents())
                        .as("%s takes exchange events", notifier).isTrue());

        assertThat(api.prometheus().sum("camel_routes_running_routes", "camelContext=")).isPositive();
    }
}
