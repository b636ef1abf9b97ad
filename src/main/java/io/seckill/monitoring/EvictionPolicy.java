package io.seckill.monitoring;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Properties;

/**
 * What one Redis server does when it reaches its memory limit, from its {@code INFO memory}.
 *
 * @param server {@code host:port} of a cluster node; empty for a single Redis
 * @param maxmemory its limit in bytes; 0 is none
 * @param policy its {@code maxmemory-policy}
 */
record EvictionPolicy(String server, long maxmemory, String policy) {

    static final String NO_EVICTION = "noeviction";
    private static final String POLICY_FIELD = "maxmemory_policy";
    private static final String LIMIT_FIELD = "maxmemory";

    /**
     * Whether it may delete keys to make room. Not without a limit (maxmemory 0), whatever the policy: Redis evicts
     * only to stay under a limit.
     */
    boolean evicts() {
        return maxmemory > 0 && !NO_EVICTION.equals(policy);
    }

    /**
     * Every server's policy in an {@code INFO memory} reply as Spring Data Redis returns it: the fields of a single
     * Redis as they are, a cluster's prefixed with each node's {@code host:port.}.
     */
    static List<EvictionPolicy> fromInfo(Properties info) {
        List<EvictionPolicy> policies = new ArrayList<>();
        for (String key : info.stringPropertyNames()) {
            if (key.endsWith(POLICY_FIELD)) {
                String prefix = key.substring(0, key.length() - POLICY_FIELD.length());
                String server = prefix.endsWith(".") ? prefix.substring(0, prefix.length() - 1) : prefix;
                policies.add(new EvictionPolicy(server, Long.parseLong(info.getProperty(prefix + LIMIT_FIELD, "0")),
                        info.getProperty(key)));
            }
        }
        policies.sort(Comparator.comparing(EvictionPolicy::server));
        return policies;
    }

    @Override
    public String toString() {
        return (server.isEmpty() ? "" : server + ": ") + "maxmemory-policy " + policy + ", maxmemory " + maxmemory;
    }
}
