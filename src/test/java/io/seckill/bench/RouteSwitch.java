package io.seckill.bench;

import com.sun.tools.attach.VirtualMachine;
import java.util.Set;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Starts or stops a Camel route of the running service over JMX, attaching to it by process id (the attach API: no
 * JMX port to open on the service).
 *
 * <pre>route PID ROUTE_ID start|stop</pre>
 */
final class RouteSwitch {

    private RouteSwitch() {
    }

    static void run(String[] args) throws Exception {
        invoke(args[0], args[1], args[2]);
        ResultLines.print("route_" + args[2], args[1]);
    }

    static void invoke(String pid, String routeId, String operation) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(pid);
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
        try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
            MBeanServerConnection server = connector.getMBeanServerConnection();
            Set<ObjectName> routes = server.queryNames(
                    new ObjectName("org.apache.camel:type=routes,name=\"" + routeId + "\",*"), null);
            if (routes.size() != 1) {
                throw new IllegalStateException("expected one Camel route " + routeId + " over JMX, found " + routes);
            }
            server.invoke(routes.iterator().next(), operation, null, null);
        }
    }
}
