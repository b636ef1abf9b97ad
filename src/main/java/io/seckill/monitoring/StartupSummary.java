package io.seckill.monitoring;

import io.seckill.config.EmbeddedRedis;
import io.seckill.redis.StreamProperties;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.camel.CamelContext;
import org.apache.camel.Route;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.data.redis.RedisConnectionDetails;
import org.springframework.boot.autoconfigure.jdbc.JdbcConnectionDetails;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.event.EventListener;
import org.springframework.core.env.Environment;
import org.springframework.stereotype.Component;

/**
 * One line at start-up that tells an operator what this instance is wired to: the Redis and the database it uses
 * (never a password), where its routes came from and which ones run, and its name in the consumer group.
 */
@Component
class StartupSummary {

    private static final Logger log = LoggerFactory.getLogger(StartupSummary.class);

    private final RedisConnectionDetails redis;
    private final ObjectProvider<EmbeddedRedis> embeddedRedis;
    private final JdbcConnectionDetails database;
    private final CamelContext camel;
    private final StreamProperties stream;
    private final Environment environment;

    StartupSummary(RedisConnectionDetails redis, ObjectProvider<EmbeddedRedis> embeddedRedis,
            JdbcConnectionDetails database, CamelContext camel, StreamProperties stream, Environment environment) {
        this.redis = redis;
        this.embeddedRedis = embeddedRedis;
        this.database = database;
        this.camel = camel;
        this.stream = stream;
        this.environment = environment;
    }

    @EventListener(ApplicationReadyEvent.class)
    void started() {
        List<String> routes = camel.getRoutes().stream().map(Route::getRouteId).sorted().toList();
        long running = routes.stream().filter(id -> camel.getRouteController().getRouteStatus(id).isStarted())
                .count();
        log.info("Started: Redis {}, database {}, {} of {} routes running from {} {}, consumer {} in group {} on {} "
                        + "shard(s), HTTP port {}",
                describeRedis(), withoutPassword(database.getJdbcUrl()), running, routes.size(),
                environment.getProperty("camel.main.routes-include-pattern"), routes, stream.consumerName(),
                stream.group(), stream.shards(), environment.getProperty("local.server.port",
                        environment.getProperty("server.port")));
    }

    private String describeRedis() {
        if (redis.getCluster() != null) {
            return "cluster " + nodes(redis.getCluster().getNodes());
        }
        if (redis.getSentinel() != null) {
            return "sentinel master " + redis.getSentinel().getMaster() + " via "
                    + nodes(redis.getSentinel().getNodes());
        }
        RedisConnectionDetails.Standalone standalone = redis.getStandalone();
        String address = standalone.getHost() + ":" + standalone.getPort() + " db " + standalone.getDatabase();
        EmbeddedRedis embedded = embeddedRedis.getIfAvailable();
        return embedded == null ? address : address + " (embedded, data in " + embedded.dataDir() + ")";
    }

    private static String nodes(List<RedisConnectionDetails.Node> nodes) {
        return nodes.stream().map(node -> node.host() + ":" + node.port()).collect(Collectors.joining(",", "[", "]"));
    }

    /** A JDBC URL may carry a password as a parameter or as user:password@; neither goes to a log. */
    static String withoutPassword(String jdbcUrl) {
        if (jdbcUrl == null) {
            return "(none)";
        }
        return jdbcUrl
                .replaceAll("(?i)((?:password|passwd|pwd)=)[^;&]*", "$1****")
                .replaceAll("(//[^/:@;?]+:)[^/@;?]*@", "$1****@");
    }
}
