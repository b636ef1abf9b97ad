package io.seckill.monitoring;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import java.util.List;
import org.apache.camel.CamelContext;
import org.apache.camel.Exchange;
import org.apache.camel.NamedNode;
import org.apache.camel.Route;
import org.apache.camel.RuntimeCamelException;
import org.apache.camel.component.micrometer.MicrometerConstants;
import org.apache.camel.component.micrometer.routepolicy.MicrometerRoutePolicyNamingStrategy;
import org.apache.camel.component.micrometer.routepolicy.MicrometerRoutePolicyService;
import org.apache.camel.spi.RoutePolicy;
import org.apache.camel.spi.RoutePolicyFactory;
import org.apache.camel.support.ExchangeHelper;
import org.apache.camel.support.RoutePolicySupport;
import org.apache.camel.support.service.ServiceHelper;
import org.springframework.stereotype.Component;

/**
 * Camel's route metrics, the meters camel-micrometer's route policy makes under the same names and tags
 * ({@code camel.route.policy}, {@code camel.exchanges.succeeded|failed|total|failures.handled|external.redeliveries},
 * tag {@code routeId}), kept by a policy that costs an exchange no more than its timer sample. Camel's own policy
 * (4.17) names the exchange property that holds the sample with {@code String.format} three times per exchange and
 * route: 12 % of all the memory an order request allocated (JFR allocation samples at the saturated intake, whose
 * every order passes two routes). Here that name is made once per route. Camel's is off
 * ({@code camel.metrics.enable-route-policy: false}); Camel adds this factory, a bean, to every route.
 */
@Component
class RouteMetrics implements RoutePolicyFactory {

    private static final MicrometerRoutePolicyNamingStrategy NAMES = MicrometerRoutePolicyNamingStrategy.DEFAULT;

    private final MeterRegistry registry;

    RouteMetrics(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    public RoutePolicy createRoutePolicy(CamelContext camelContext, String routeId, NamedNode route) {
        addRoutePolicyService(camelContext);
        return new Policy(registry);
    }

    /**
     * As Camel's route policy does, once per context: the service that registers the {@code app.info} gauge (Camel's
     * version and context) and dumps the route meters as JSON over JMX.
     */
    private void addRoutePolicyService(CamelContext camelContext) {
        if (camelContext.hasService(MicrometerRoutePolicyService.class) != null) {
            return;
        }
        MicrometerRoutePolicyService service = new MicrometerRoutePolicyService();
        service.setMeterRegistry(registry);
        service.setMatchingTags(Tags.of(MicrometerConstants.KIND, MicrometerConstants.KIND_ROUTE));
        try {
            camelContext.addService(service);
        } catch (Exception e) {
            throw RuntimeCamelException.wrapRuntimeCamelException(e);
        }
        ServiceHelper.startService(service);
    }

    /** One route's meters. */
    static final class Policy extends RoutePolicySupport {

        private final MeterRegistry registry;
        private String sampleProperty;
        private Timer timer;
        private Counter succeeded;
        private Counter failed;
        private Counter total;
        private Counter failuresHandled;
        private Counter externalRedeliveries;

        Policy(MeterRegistry registry) {
            this.registry = registry;
        }

        @Override
        public void onInit(Route route) {
            super.onInit(route);
            sampleProperty = "seckill.route-timer." + route.getRouteId();
            timer = Timer.builder(NAMES.getName(route)).tags(NAMES.getTags(route))
                    .description("Route performance metrics").register(registry);
            total = counter(NAMES.getExchangesTotalName(route), "Total number of processed exchanges", route);
            succeeded = counter(NAMES.getExchangesSucceededName(route), "Number of successfully completed exchanges",
                    route);
            failed = counter(NAMES.getExchangesFailedName(route), "Number of failed exchanges", route);
            failuresHandled = counter(NAMES.getFailuresHandledName(route), "Number of failures handled", route);
            externalRedeliveries = counter(NAMES.getExternalRedeliveriesName(route),
                    "Number of external initiated redeliveries (such as from JMS broker)", route);
        }

        @Override
        public void onExchangeBegin(Route route, Exchange exchange) {
            exchange.setProperty(sampleProperty, Timer.start(registry));
        }

        @Override
        public void onExchangeDone(Route route, Exchange exchange) {
            if (exchange.removeProperty(sampleProperty) instanceof Timer.Sample sample) {
                sample.stop(timer);
            }
            total.increment();
            if (exchange.isFailed()) {
                failed.increment();
                return;
            }
            succeeded.increment();
            if (ExchangeHelper.isFailureHandled(exchange)) {
                failuresHandled.increment();
            }
            if (exchange.isExternalRedelivered()) {
                externalRedeliveries.increment();
            }
        }

        @Override
        public void onRemove(Route route) {
            List.<Meter>of(timer, total, succeeded, failed, failuresHandled, externalRedeliveries)
                    .forEach(registry::remove);
        }

        private Counter counter(String name, String description, Route route) {
            return Counter.builder(name).tags(NAMES.getExchangeStatusTags(route)).description(description)
                    .register(registry);
        }
    }
}
