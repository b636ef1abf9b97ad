package io.seckill.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.lettuce.core.resource.DefaultClientResources;
import io.netty.channel.EventLoopGroup;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.HashMap;
import java.util.Map;
import org.apache.camel.CamelContext;
import org.apache.camel.RoutesBuilder;
import org.apache.camel.builder.RouteBuilder;
import org.apache.camel.spi.RestConfiguration;
import org.apache.camel.spring.boot.CamelContextConfiguration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.actuate.health.HealthEndpoint;
import org.springframework.boot.actuate.health.HttpCodeStatusMapper;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.autoconfigure.data.redis.ClientResourcesBuilderCustomizer;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.boot.web.servlet.server.ConfigurableServletWebServerFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * The API on Camel's netty-http ({@code seckill.api.engine=netty-http}): the REST DSL's routes are served by Netty at
 * {@code server.port}, each request's route runs on Netty's worker pool and the order route completes when Redis
 * answers, so no thread waits for Redis; Tomcat keeps the actuator, the console and the login, at
 * {@code seckill.api.management-port}, and the liveness and readiness probes answer on both ports. Netty's answers of
 * its own become problem+json ({@link NettyRequestGate}, {@link NettyProblemAnswers}); the refusals this instance
 * remembers are answered before any route ({@link NettyRememberedRefusals}), the order placement finds its route
 * without Camel's path search ({@link NettyApiMultiplexer}), and every answer is made from the few headers an answer
 * may carry, not from all the message's converted first ({@link NettyApiBinding}); what one client may hold is
 * bounded by {@link NettyConnectionLimits}, pipelined requests are answered in order ({@link NettyRequestOrder}), and
 * a read's completion stays on the I/O thread ({@link NettyReadCompletions}). Netty's server and the Redis client do
 * their I/O on the same threads ({@link SharedIoThreads}).
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "seckill.api.engine", havingValue = "netty-http")
class NettyEngine {

    private static final Logger log = LoggerFactory.getLogger(NettyEngine.class);

    /** {@code server.port=0} (tests) is a free port chosen here, so the REST configuration can name it. */
    @Bean
    ApiListener apiListener(@Value("${server.address:0.0.0.0}") String host, @Value("${server.port:8080}") int port) {
        return new ApiListener(host, port != 0 ? port : freePort(host));
    }

    @Bean(destroyMethod = "close")
    SharedIoThreads sharedIoThreads(ApiProperties api) {
        return new SharedIoThreads(SharedIoThreads.count(api.ioThreads(), Runtime.getRuntime().availableProcessors()));
    }

    /** The server's connections' loops, named in the REST endpoints' {@code workerGroup}; their owner ends them. */
    @Bean(destroyMethod = "")
    EventLoopGroup apiIoThreads(SharedIoThreads io) {
        return io.loops();
    }

    /**
     * Lettuce's resources as Boot builds them (its customizers applied), on the shared threads; Boot's own backs off.
     * Depending on the threads, they are shut down (with the Redis client) before the threads end.
     */
    @Bean(destroyMethod = "shutdown")
    DefaultClientResources lettuceClientResources(SharedIoThreads io,
            ObjectProvider<ClientResourcesBuilderCustomizer> customizers) {
        DefaultClientResources.Builder builder = DefaultClientResources.builder();
        customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
        return builder.eventLoopGroupProvider(io).build();
    }

    /** Camel finds the component of {@code netty-http} URIs by this name before looking for its own. */
    @Bean("netty-http")
    NettyApiComponent nettyHttpComponent() {
        return new NettyApiComponent();
    }

    @Bean
    EngineProblemWriter engineProblemWriter(ObjectMapper json) {
        return new EngineProblemWriter(json);
    }

    @Bean("nettyRequestGate")
    NettyRequestGate.Factory nettyRequestGate(CamelContext camel, EngineProblemWriter problems,
            WarmUpRequests warmUp) {
        return new NettyRequestGate.Factory(camel, problems, warmUp);
    }

    @Bean("nettyProblemAnswers")
    NettyProblemAnswers.Factory nettyProblemAnswers(EngineProblemWriter problems) {
        return new NettyProblemAnswers.Factory(problems);
    }

    @Bean("nettyRememberedRefusals")
    NettyRememberedRefusals.Factory nettyRememberedRefusals(OrderPlacement placement, WarmUpRequests warmUps,
            EngineProblemWriter problems) {
        return new NettyRememberedRefusals.Factory(placement::remembered, warmUps, problems);
    }

    @Bean("nettyReadCompletions")
    NettyReadCompletions nettyReadCompletions() {
        return new NettyReadCompletions();
    }

    @Bean("nettyRequestOrder")
    NettyRequestOrder.Factory nettyRequestOrder() {
        return new NettyRequestOrder.Factory();
    }

    @Bean("nettyApiBinding")
    NettyApiBinding nettyApiBinding(ResponseHeaders apiHeaderFilter) {
        return new NettyApiBinding(apiHeaderFilter);
    }

    @Bean("nettyConnectionLimits")
    NettyConnectionLimits.Factory nettyConnectionLimits(ApiProperties api, EngineProblemWriter problems) {
        return new NettyConnectionLimits.Factory(api, problems);
    }

    @Bean
    CamelContextConfiguration nettyRestConfiguration(ApiListener listener, ApiProperties api) {
        return new CamelContextConfiguration() {
            @Override
            public void beforeApplicationStart(CamelContext camel) {
                RestConfiguration rest = camel.getRestConfiguration();
                rest.setHost(listener.host());
                rest.setPort(listener.port());
                Map<String, Object> endpoint = new HashMap<>();
                if (rest.getEndpointProperties() != null) {
                    endpoint.putAll(rest.getEndpointProperties());
                }
                endpoint.put("workerGroup", "#apiIoThreads");
                endpoint.put("decoders", "#nettyRequestGate,#nettyReadCompletions");
                // Just after the response encoder, where answers pass whole and requests come decoded; in this order
                // (the refusals from memory get one request at a time and write their answers through the others).
                endpoint.put("encoders",
                        "#nettyProblemAnswers,#nettyConnectionLimits,#nettyRequestOrder,#nettyRememberedRefusals");
                // Netty's aggregator answers 413 (made a problem by NettyProblemAnswers) past this, unread.
                endpoint.put("chunkedMaxContentLength", Long.toString(api.maxBodySize().toBytes()));
                endpoint.put("headerFilterStrategy", "#apiHeaderFilter");
                endpoint.put("nettyHttpBinding", "#nettyApiBinding");
                rest.setEndpointProperties(endpoint);
            }

            @Override
            public void afterApplicationStart(CamelContext camel) {
                log.info("API listening on port {} (Netty, {}), the actuator and console on Tomcat",
                        listener.port(), listener.host());
            }
        };
    }

    /** GET /actuator/health/liveness and /readiness on the API's port too ({@link HealthProbes}). */
    @Bean
    RoutesBuilder nettyHealthProbes(HealthEndpoint health, HttpCodeStatusMapper statusCodes) {
        HealthProbes probes = new HealthProbes(health, statusCodes);
        return new RouteBuilder() {
            @Override
            public void configure() {
                rest("/actuator/health").apiDocs(false)
                        .get("/liveness").id("api-liveness-probe").to("direct:liveness-probe")
                        .get("/readiness").id("api-readiness-probe").to("direct:readiness-probe");
                from("direct:liveness-probe").routeId("liveness-probe")
                        .process(exchange -> probes.answer(exchange, "liveness"));
                from("direct:readiness-probe").routeId("readiness-probe")
                        .process(exchange -> probes.answer(exchange, "readiness"));
            }
        };
    }

    @Bean
    WebServerFactoryCustomizer<ConfigurableServletWebServerFactory> managementOnTomcat(ApiProperties api) {
        return new ManagementPort(api.managementPort());
    }

    /** After Boot's own customizer, which gave Tomcat {@code server.port}. */
    private record ManagementPort(int port) implements WebServerFactoryCustomizer<ConfigurableServletWebServerFactory>,
            Ordered {

        @Override
        public void customize(ConfigurableServletWebServerFactory factory) {
            factory.setPort(port);
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }

    private static int freePort(String host) {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName(host))) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("No free port for the API", e);
        }
    }
}
