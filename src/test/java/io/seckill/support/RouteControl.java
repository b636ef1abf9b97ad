package io.seckill.support;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.util.Set;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Stops and starts Camel routes of a {@link ServiceProcess} over JMX, as an operator does with jconsole: attached
 * by process id (attach API, local management agent), so the service needs no JMX port. The connection stays
 * open, so that routes of several instances can be switched within milliseconds of each other.
 */
public final class RouteControl implements AutoCloseable {

    private final JMXConnector connector;
    private final MBeanServerConnection server;

    private RouteControl(JMXConnector connector) throws IOException {
        this.connector = connector;
        this.server = connector.getMBeanServerConnection();
    }

    public static RouteControl attach(ServiceProcess instance) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(instance.pid()));
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
        return new RouteControl(JMXConnectorFactory.connect(new JMXServiceURL(address)));
    }

    /** Graceful: the route's consumer finishes the exchange in hand. */
    public void stop(String routeId) throws Exception {
        server.invoke(route(routeId), "stop", null, null);
    }

    public void start(String routeId) throws Exception {
        server.invoke(route(routeId), "start", null, null);
    }

    private ObjectName route(String routeId) throws Exception {
        Set<ObjectName> routes = server.queryNames(
                new ObjectName("org.apache.camel:type=routes,name=\"" + routeId + "\",*"), null);
        if (routes.size() != 1) {
            throw new IllegalStateException("Expected one Camel route " + routeId + " over JMX, found " + routes);
        }
        return routes.iterator().next();
    }

    @Override
    public void close() throws IOException {
        connector.close();
    }
}
