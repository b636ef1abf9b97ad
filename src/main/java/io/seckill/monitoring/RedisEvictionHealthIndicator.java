package io.seckill.monitoring;

import java.util.List;
import java.util.Objects;
import java.util.Properties;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.event.EventListener;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Health {@code redisEviction}, part of readiness: DOWN while Redis may evict keys (a {@code maxmemory} and a
 * {@code maxmemory-policy} other than {@code noeviction}, on any node). An evicted stream entry is an accepted order
 * lost; an evicted buyers set lets a buyer order twice. A Redis without a limit ({@code maxmemory 0}, the embedded
 * one) evicts nothing whatever its policy, and passes.
 *
 * <p>Read from {@code INFO memory}: the service needs INFO anyway (the Redis state check), and a managed Redis
 * answers it where it refuses {@code CONFIG GET}, as the embedded one does. Read again on every probe, so a policy
 * mended with {@code CONFIG SET} is seen without a restart. {@code seckill.redis.allow-eviction=true} reports it UP,
 * for an operator who sized the limit knowingly. One WARN line at start, and one each time the verdict changes.
 */
@Component
class RedisEvictionHealthIndicator extends AbstractHealthIndicator {

    static final String SETTING = "seckill.redis.allow-eviction";
    private static final Logger log = LoggerFactory.getLogger(RedisEvictionHealthIndicator.class);

    private final StringRedisTemplate redis;
    private final boolean allowed;
    /** The evicting servers last logged, so a verdict is logged once, not on every probe. */
    private volatile List<EvictionPolicy> lastLogged = List.of();

    RedisEvictionHealthIndicator(StringRedisTemplate redis, RedisEvictionProperties properties) {
        super("Redis's eviction policy could not be read (INFO memory)");
        this.redis = redis;
        this.allowed = properties.allowEviction();
    }

    @EventListener(ApplicationStartedEvent.class)
    void checkAtStart() {
        try {
            evicting();
        } catch (RuntimeException e) {
            log.warn("Could not read Redis's eviction policy (INFO memory): {}; readiness stays DOWN until it can",
                    e.getMessage());
        }
    }

    @Override
    protected void doHealthCheck(Health.Builder health) {
        List<EvictionPolicy> evicting = evicting();
        if (evicting.isEmpty()) {
            health.up().withDetail("maxmemory-policy", EvictionPolicy.NO_EVICTION + " or no maxmemory");
            return;
        }
        (allowed ? health.up() : health.down())
                .withDetail("maxmemory-policy", evicting.stream().map(EvictionPolicy::policy).distinct()
                        .collect(Collectors.joining(", ")))
                .withDetail("servers", evicting.stream().map(EvictionPolicy::toString).toList())
                .withDetail("setting", SETTING + "=" + allowed)
                .withDetail("reason", allowed ? "Redis may evict accepted orders and buyers; allowed by " + SETTING
                        : "Redis may evict accepted orders and buyers: set maxmemory-policy noeviction (or no "
                                + "maxmemory), or " + SETTING + "=true to take orders anyway");
    }

    private List<EvictionPolicy> evicting() {
        Properties info = redis.execute((RedisCallback<Properties>) c -> c.serverCommands().info("memory"));
        List<EvictionPolicy> evicting = EvictionPolicy.fromInfo(Objects.requireNonNull(info, "no INFO reply"))
                .stream().filter(EvictionPolicy::evicts).toList();
        logChange(evicting);
        return evicting;
    }

    private synchronized void logChange(List<EvictionPolicy> evicting) {
        if (evicting.equals(lastLogged)) {
            return;
        }
        String servers = evicting.stream().map(EvictionPolicy::toString).collect(Collectors.joining("; "));
        if (evicting.isEmpty()) {
            log.info("Redis no longer evicts keys (maxmemory-policy noeviction or no maxmemory)");
        } else if (allowed) {
            log.warn("Redis may evict keys ({}): accepted orders and buyers can be lost; taking orders anyway, as {}"
                    + "=true says", servers, SETTING);
        } else {
            log.warn("Redis may evict keys ({}): accepted orders and buyers can be lost. Readiness stays DOWN until "
                    + "its maxmemory-policy is noeviction (or it has no maxmemory), or {}=true", servers, SETTING);
        }
        lastLogged = evicting;
    }
}
