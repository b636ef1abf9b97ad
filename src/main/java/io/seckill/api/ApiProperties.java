package io.seckill.api;

import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * Limits of the REST API.
 *
 * @param maxBodySize the largest request body taken; a larger one is answered 413 PAYLOAD_TOO_LARGE unread
 * @param bodyDeadline how long a request's body may take to arrive, from its headers (both engines); later is 408
 *        REQUEST_TIMEOUT and the connection closed
 * @param idleTimeout {@code netty-http}: a connection waiting this long for its next request to arrive whole (idle,
 *        or headers trickling in) is closed
 * @param maxConnections {@code netty-http}: connections open at once; one beyond is closed as it is accepted
 * @param maxPipelinedRequests {@code netty-http}: requests of one connection received and not yet answered; at the
 *        limit the connection is not read until an answer goes out
 * @param engine the Camel component that serves the API: {@code platform-http} (Tomcat, with the actuator, all on
 *        {@code server.port}) or {@code netty-http} (Netty on {@code server.port}; the actuator and console on
 *        Tomcat at {@code management-port})
 * @param managementPort Tomcat's port with the {@code netty-http} engine (0: any free port)
 * @param ioThreads {@code netty-http}: the I/O threads Netty's server and the Redis client share
 *        ({@link SharedIoThreads}); 0: one per two CPUs, at least one
 */
@Validated
@ConfigurationProperties("seckill.api")
public record ApiProperties(@NotNull DataSize maxBodySize, @NotNull Duration bodyDeadline,
        @NotNull Duration idleTimeout, @Min(1) int maxConnections, @Min(1) int maxPipelinedRequests,
        @NotNull Engine engine, int managementPort, @Min(0) int ioThreads) {

    public enum Engine {
        PLATFORM_HTTP, NETTY_HTTP
    }

    /** Bodies are held in memory to be checked, so the limit stays small. */
    static final DataSize LARGEST_LIMIT = DataSize.ofMegabytes(16);

    public ApiProperties {
        if (maxBodySize != null && (maxBodySize.toBytes() < 1 || maxBodySize.compareTo(LARGEST_LIMIT) > 0)) {
            throw new IllegalArgumentException("seckill.api.max-body-size must be between 1B and " + LARGEST_LIMIT
                    + ", got " + maxBodySize);
        }
        requirePositive("body-deadline", bodyDeadline);
        requirePositive("idle-timeout", idleTimeout);
    }

    private static void requirePositive(String name, Duration value) {
        if (value != null && (value.isNegative() || value.isZero())) {
            throw new IllegalArgumentException("seckill.api." + name + " must be positive, got " + value);
        }
    }
}
