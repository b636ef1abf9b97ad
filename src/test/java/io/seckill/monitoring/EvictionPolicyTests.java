package io.seckill.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Properties;
import org.junit.jupiter.api.Test;

/** Which servers may evict, from INFO memory as Spring Data Redis returns it for a single Redis and a cluster. */
class EvictionPolicyTests {

    @Test
    void aLimitWithAPolicyOtherThanNoevictionEvicts() {
        assertThat(EvictionPolicy.fromInfo(info("", "10485760", "allkeys-lru")))
                .containsExactly(new EvictionPolicy("", 10485760, "allkeys-lru"))
                .allMatch(EvictionPolicy::evicts);
        assertThat(new EvictionPolicy("", 10485760, "volatile-ttl").evicts()).isTrue();
    }

    @Test
    void noevictionOrNoLimitEvictsNothing() {
        assertThat(new EvictionPolicy("", 10485760, "noeviction").evicts()).isFalse();
        // maxmemory 0: no limit, nothing to evict for, whatever the policy
        assertThat(new EvictionPolicy("", 0, "allkeys-lru").evicts()).isFalse();
    }

    @Test
    void everyClusterNodeIsReadUnderItsOwnName() {
        Properties info = info("127.0.0.1:7001.", "0", "allkeys-lru");
        info.putAll(info("127.0.0.1:7002.", "1048576", "allkeys-lru"));

        assertThat(EvictionPolicy.fromInfo(info)).containsExactly(
                new EvictionPolicy("127.0.0.1:7001", 0, "allkeys-lru"),
                new EvictionPolicy("127.0.0.1:7002", 1048576, "allkeys-lru"));
        assertThat(EvictionPolicy.fromInfo(info).get(1))
                .hasToString("127.0.0.1:7002: maxmemory-policy allkeys-lru, maxmemory 1048576");
    }

    private static Properties info(String prefix, String maxmemory, String policy) {
        Properties info = new Properties();
        info.setProperty(prefix + "used_memory", "1000000");
        info.setProperty(prefix + "maxmemory", maxmemory);
        info.setProperty(prefix + "maxmemory_human", "10.00M");
        info.setProperty(prefix + "maxmemory_policy", policy);
        return info;
    }
}
