package io.seckill.support;

import org.apache.camel.CamelContext;
import org.apache.camel.api.management.ManagedCamelContext;

/** A route's counters from Camel's management (needs {@code @DisableJmx(false)} on the test class). */
public final class RouteStats {

    private RouteStats() {}

    public static long failedExchanges(CamelContext camel, String routeId) {
        return camel.getCamelContextExtension().getContextPlugin(ManagedCamelContext.class).getManagedRoute(routeId)
                .getExchangesFailed();
    }
}
