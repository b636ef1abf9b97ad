package io.seckill.monitoring;

import org.apache.camel.CamelContext;
import org.apache.camel.component.micrometer.eventnotifier.MicrometerRouteEventNotifier;
import org.apache.camel.spi.EventNotifier;
import org.apache.camel.spring.boot.CamelContextConfiguration;
import org.springframework.stereotype.Component;

/**
 * No event per exchange. While any event notifier of the context takes exchange events, Camel makes an
 * exchange-sending event for every message sent to an endpoint, just to offer it (JFR's allocation samples of the
 * saturated intake found them on the order route, bench/runs/2026-11-28-rest-multiplexer.md). The service's
 * notifiers take none but do not say so (4.17): camel-micrometer's route meters ({@code camel.routes.added},
 * {@code camel.routes.running}, {@code camel.routes.reloaded}) and camel-spring-boot's, which calls each
 * {@link CamelContextConfiguration#afterApplicationStart} once the context has started. Both are told here, once
 * the context has started; their meters and calls are the same. camel-micrometer's exchange event notifier is off
 * (application.yaml); a notifier added later that takes exchange events is one on purpose.
 */
@Component
class ExchangeEventsIgnored implements CamelContextConfiguration {

    private static final String SPRING_BOOT_NOTIFIERS = "org.apache.camel.spring.boot.";

    @Override
    public void beforeApplicationStart(CamelContext camel) {
        // camel-spring-boot's notifier is added after this, before the context starts
    }

    @Override
    public void afterApplicationStart(CamelContext camel) {
        camel.getManagementStrategy().getEventNotifiers().stream()
                .filter(ExchangeEventsIgnored::takesNoExchangeEvents)
                .forEach(notifier -> notifier.setIgnoreExchangeEvents(true));
    }

    private static boolean takesNoExchangeEvents(EventNotifier notifier) {
        return notifier instanceof MicrometerRouteEventNotifier
                || notifier.getClass().getName().startsWith(SPRING_BOOT_NOTIFIERS);
    }
}
