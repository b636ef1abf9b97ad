package io.seckill.operator;

import java.util.List;
import java.util.Set;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.jolokia.server.core.service.api.Restrictor;
import org.jolokia.server.core.util.HttpMethod;
import org.jolokia.server.core.util.RequestType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What the operator may do through Jolokia (and so through Hawtio): read any attribute, list and search MBeans,
 * run the dead-letter operations, start, stop, suspend and resume a Camel route, and the read-only renderings the
 * console draws with. Everything else is refused, in particular what turns a login into running code or
 * writing files: Camel's {@code sendBody}/{@code requestBody}/{@code createEndpoint} on the context,
 * {@code updateRouteFromXml} on a route, {@code DiagnosticCommand} and {@code HotSpotDiagnostic} (heap dumps,
 * VM flags), MLet (loading classes from a URL), and writing attributes. Only over POST, and without CORS.
 *
 * <p>Jolokia builds this class itself by name ({@code management.endpoint.jolokia.config.restrictorClass}).
 */
public class OperatorJolokiaRestrictor implements Restrictor {

    private static final Logger log = LoggerFactory.getLogger(OperatorJolokiaRestrictor.class);

    private static final Set<RequestType> TYPES = Set.of(RequestType.READ, RequestType.LIST, RequestType.SEARCH,
            RequestType.VERSION, RequestType.EXEC);

    private final List<Allowed> operations = List.of(
            // The dead-letter console: list, replay, replayAll, discard.
            new Allowed(name("seckill:type=DeadLetters"), null),
            new Allowed(name("org.apache.camel:type=routes,*"), Set.of("start", "stop", "suspend", "resume")),
            // Read-only renderings Hawtio's Camel plugin draws routes, diagrams and statistics from.
            new Allowed(name("org.apache.camel:*"), Set.of("dumpRoutesAsXml", "dumpRouteAsXml",
                    "dumpRoutesStatsAsXml", "dumpRouteStatsAsXml", "dumpStatsAsXml", "dumpRoutesAsYaml",
                    "dumpRouteAsYaml")),
            // Hawtio's Threads view, and its start-up calls that ask which operations the user may invoke.
            new Allowed(name("java.lang:type=Threading"), Set.of("dumpAllThreads", "findDeadlockedThreads")),
            new Allowed(name("hawtio:type=security,name=RBACRegistry"), Set.of("list")),
            new Allowed(name("hawtio:type=security,area=jmx,*"), Set.of("canInvoke")));

    /** GET would run an operation from a URL; Hawtio posts. (The login's filter chain refuses GET first, with 403.) */
    @Override
    public boolean isHttpMethodAllowed(HttpMethod method) {
        return method == HttpMethod.POST;
    }

    @Override
    public boolean isTypeAllowed(RequestType type) {
        boolean allowed = TYPES.contains(type);
        if (!allowed) {
            log.warn("Jolokia refused a {} request", type.getName());
        }
        return allowed;
    }

    @Override
    public boolean isAttributeReadAllowed(ObjectName mbean, String attribute) {
        return true;
    }

    @Override
    public boolean isAttributeWriteAllowed(ObjectName mbean, String attribute) {
        log.warn("Jolokia refused writing {} of {}", attribute, mbean);
        return false;
    }

    @Override
    public boolean isOperationAllowed(ObjectName mbean, String operation) {
        // Jolokia passes the operation as called, with its signature when overloaded: "replay(java.lang.String)".
        int signature = operation.indexOf('(');
        String bareName = signature < 0 ? operation : operation.substring(0, signature);
        boolean allowed = operations.stream().anyMatch(rule -> rule.allows(mbean, bareName));
        if (!allowed) {
            log.warn("Jolokia refused operation {} of {}", operation, mbean);
        }
        return allowed;
    }

    @Override
    public boolean isRemoteAccessAllowed(String... hostOrAddress) {
        // Who may call is Spring Security's decision (the operator's login), not an address list's.
        return true;
    }

    /**
     * Asked twice: whether a request from this origin may run (strict), which {@link SameOriginOnly} decided before
     * Jolokia, refusing every other origin; and whether to answer it with CORS headers, which would echo the origin
     * with credentials allowed: never, as the console is served from the service's own origin and needs none.
     */
    @Override
    public boolean isOriginAllowed(String origin, boolean onlyWhenStrictCheckingIsEnabled) {
        return onlyWhenStrictCheckingIsEnabled;
    }

    @Override
    public boolean isObjectNameHidden(ObjectName name) {
        return false;
    }

    /** Operations of MBeans matching a name or pattern; null operations: every operation. */
    private record Allowed(ObjectName mbeans, Set<String> operations) {

        boolean allows(ObjectName mbean, String operation) {
            return mbeans.apply(mbean) && (operations == null || operations.contains(operation));
        }
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(name, e);
        }
    }
}
