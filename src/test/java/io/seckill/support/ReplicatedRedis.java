package io.seckill.support;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * A master with one replica (real redis-server processes, under {@code dir}) for the service with
 * {@code seckill.redis.replica-acks=1}: started in a test class's static fields, closed in its {@code @AfterAll}.
 */
public record ReplicatedRedis(StandaloneRedis master, StandaloneRedis replica) implements Closeable {

    public static ReplicatedRedis start(Path dir) {
        StandaloneRedis master = StandaloneRedis.start(dir.resolve("master"));
        return new ReplicatedRedis(master,
                StandaloneRedis.start(dir.resolve("replica"), "replicaof 127.0.0.1 " + master.port()));
    }

    /** The service on the master, a 202 only once the replica holds the order, refused after {@code ackTimeout}. */
    public void serviceProperties(DynamicPropertyRegistry registry, Duration ackTimeout) {
        master.serviceProperties().forEach((key, value) -> registry.add(key, () -> value));
        registry.add("seckill.redis.replica-acks", () -> "1");
        registry.add("seckill.redis.replica-ack-timeout", ackTimeout::toString);
    }

    @Override
    public void close() throws IOException {
        replica.close();
        master.close();
    }
}
