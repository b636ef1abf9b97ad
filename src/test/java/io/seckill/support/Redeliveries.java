package io.seckill.support;

import java.util.concurrent.atomic.AtomicLong;
import org.apache.camel.CamelContext;
import org.apache.camel.spi.CamelEvent;
import org.apache.camel.spring.boot.CamelContextConfiguration;
import org.apache.camel.support.EventNotifierSupport;

/** Counts Camel's redelivery attempts (ExchangeRedeliveryEvent), to tell "retried" from "not retried". */
public class Redeliveries extends EventNotifierSupport implements CamelContextConfiguration {

    private final AtomicLong count = new AtomicLong();

    @Override
    public void beforeApplicationStart(CamelContext camelContext) {
        camelContext.getManagementStrategy().addEventNotifier(this);
    }

    @Override
    public void afterApplicationStart(CamelContext camelContext) {
        // nothing to do
    }

    @Override
    public boolean isEnabled(CamelEvent event) {
        return event instanceof CamelEvent.ExchangeRedeliveryEvent;
    }

    @Override
    public void notify(CamelEvent event) {
        count.incrementAndGet();
    }

    public long count() {
        return count.get();
    }
}
