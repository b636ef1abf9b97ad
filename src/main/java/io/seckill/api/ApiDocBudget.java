package io.seckill.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.seckill.refusal.Refusal;
import java.io.UncheckedIOException;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.Route;
import org.apache.camel.spi.RoutePolicy;
import org.apache.camel.spring.boot.CamelContextConfiguration;
import org.apache.camel.support.RoutePolicySupport;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.stereotype.Component;

/**
 * The request budget of {@code /api-doc}. The REST DSL generates that route ({@code rest-api:} to itself), with no
 * place for a step of ours, so the budget is taken by a route policy as each exchange begins: over it, the 429
 * problem is the answer and the route stops before the document is rendered.
 */
@Component
class ApiDocBudget implements CamelContextConfiguration {

    private final String routeId;
    private final RoutePolicy policy;

    ApiDocBudget(RequestBudget budget, ProblemResponses problems,
            @Value("${camel.rest.api-context-route-id}") String routeId) {
        this.routeId = routeId;
        this.policy = new RoutePolicySupport() {
            @Override
            public void onExchangeBegin(Route route, Exchange exchange) {
                try {
                    budget.take(exchange);
                } catch (Refusal overBudget) {
                    try {
                        // Not counted: the admission metrics are the order route's.
                        problems.refuseUncounted(exchange, overBudget);
                    } catch (JsonProcessingException e) {
                        throw new UncheckedIOException(e);
                    }
                    exchange.setRouteStop(true);
                }
            }
        };
    }

    @Override
    public void beforeApplicationStart(CamelContext camel) {
        camel.addRoutePolicyFactory((context, id, route) -> routeId.equals(id) ? policy : null);
    }

    @Override
    public void afterApplicationStart(CamelContext camel) {
    }
}
