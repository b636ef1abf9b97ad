package io.seckill.support;

import io.seckill.Application;
import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import java.util.ArrayList;
import java.util.List;
import org.apache.camel.CamelContext;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The service started by a test itself, as an operator starts it, for what one Spring test context cannot do:
 * stop and start again on the same data, or read its routes from a folder the test edits. Profile {@code test}
 * (short timers) on a free port; the arguments override the rest.
 */
public final class RunningService implements AutoCloseable {

    private final ConfigurableApplicationContext context;

    private RunningService(ConfigurableApplicationContext context) {
        this.context = context;
    }

    public static RunningService start(String... arguments) {
        List<String> all = new ArrayList<>(List.of(
                "--server.port=0",
                // Another service may run in this JVM (the cached test context): its MBeans keep their names.
                "--spring.jmx.unique-names=true"));
        all.addAll(List.of(arguments));
        return new RunningService(new SpringApplicationBuilder(Application.class)
                .main(Application.class)
                .profiles("test")
                .run(all.toArray(String[]::new)));
    }

    public ApiClient api() {
        return ApiClient.of(context);
    }

    public Stores stores() {
        return new Stores(bean(StringRedisTemplate.class), bean(JdbcTemplate.class));
    }

    public VoucherStreams streams() {
        return new VoucherStreams(bean(StringRedisTemplate.class), bean(RedisKeys.class), bean(StreamProperties.class));
    }

    public CamelContext camel() {
        return bean(CamelContext.class);
    }

    public <T> T bean(Class<T> type) {
        return context.getBean(type);
    }

    /** Stops the service as SIGTERM would: requests in flight finish, Camel drains, Redis and the pool close. */
    @Override
    public void close() {
        context.close();
    }
}
