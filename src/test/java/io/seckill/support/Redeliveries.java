package io.seckill.support;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.camel.CamelContext;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.spring.boot.CamelContextConfiguration;
import org.apache.camel.support.EventNotifierSupport;

/**
 * Counts Camel's redelivery attempts (ExchangeRedeliveryEvent), to tell "retried" from "not retried". The notifier
 * is registered here only: were it a bean itself, Camel would also pick it up on its own and count twice.
 */
public class Redeliveries implements CamelContextConfiguration {

    private final AtomicLong count = new AtomicLong();

    @Override
    public void beforeApplicationStart(CamelContext camelContext) {
        camelContext.getManagementStrategy().addEventNotifier(new EventNotifierSupport() {
            @Override
            public boolean isEnabled(CamelEvent event) {
                return event instanceof CamelEvent.ExchangeRedeliveryEvent;
            }

            @Override
            public void notify(CamelEvent event) {
                count.incrementAndGet();
            }
        });
    }

    @Override
    public void afterApplicationStart(CamelContext camelContext) {
        // nothing to do
    }

    public long count() {
        return count.get();
    }
}
