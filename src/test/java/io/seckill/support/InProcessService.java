package io.seckill.support;

import io.seckill.Application;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * One more instance of the whole service, started in this JVM next to the test's own: another Spring context
 * with its own HTTP port, Camel routes, connection pools and consumer name, pointed by the test at the stores
 * it should share. For a second instance or a restart; a crash (SIGKILL) needs a child JVM instead.
 */
public final class InProcessService implements AutoCloseable {

    private final ConfigurableApplicationContext context;
    private final ApiClient api;

    private InProcessService(ConfigurableApplicationContext context) {
        this.context = context;
        this.api = ApiClient.of(context);
    }

    /**
     * @param profiles the profiles, as the test's own context has them
     * @param properties what differs from those profiles (which Redis, which database, …)
     */
    public static InProcessService start(String[] profiles, Map<String, Object> properties) {
        Map<String, Object> all = new LinkedHashMap<>();
        all.put("server.port", "0");
        // The MBean seckill:type=DeadLetters belongs to the test's own context; two cannot share its name.
        all.put("spring.jmx.enabled", "false");
        all.putAll(properties);
        // As command-line arguments: they win over the profiles' files, as an operator's --key=value does.
        String[] args = all.entrySet().stream().map(e -> "--" + e.getKey() + "=" + e.getValue())
                .toArray(String[]::new);
        ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
                .profiles(profiles)
                .run(args);
        return new InProcessService(context);
    }

    public ApiClient api() {
        return api;
    }

    /** A graceful stop: requests in flight finish, the stream consumers acknowledge the batch in hand. */
    @Override
    public void close() {
        context.close();
    }
}
