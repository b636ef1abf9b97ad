package io.seckill.config;

import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.springframework.validation.annotation.Validated;

/**
 * The Redis the service starts itself when no real one is configured.
 *
 * @param embedded start it ({@code false}: use {@code spring.data.redis.*})
 * @param port its port; 0 picks a free one
 * @param dataDir where it keeps its append-only file, so accepted orders survive a restart
 * @param appendfsync when it forces its append-only file to disk: what a 202 survives (docs/production.md,
 *     "What a 202 survives")
 * @param restartAttempts how often a redis-server that died is started again (pauses 0.5 s, 1 s, 2 s, …) before
 *     liveness goes DOWN
 * @param refusedCommands commands the embedded Redis answers {@code NOPERM} even to a client with its password
 *     (docs/security.md, "The Redis")
 * @param aofRewrite when it rewrites its append-only file ({@link QuietAofRewrites})
 */
@Validated
@ConfigurationProperties("seckill.redis")
public record EmbeddedRedisProperties(boolean embedded, @Min(0) @Max(65535) int port, @NotNull Path dataDir,
        @NotNull Appendfsync appendfsync, @Min(1) int restartAttempts,
        @NotNull List<@Pattern(regexp = "[a-z]+", message = "a Redis command name in lower case") String>
                refusedCommands,
        @NotNull @Valid AofRewrite aofRewrite) {

    /**
     * When the embedded Redis rewrites its append-only file: a fork that writes the whole dataset anew, holding a CPU
     * and the disk for seconds.
     *
     * @param minSize the service asks for a rewrite once the file is this large and has doubled since the last one
     * @param quietBelow ... and has grown by less than this a second (the intake is quiet) for {@code quietFor}
     * @param quietFor how long the file must have grown that slowly
     * @param maxSize Redis rewrites the file itself at this size (and doubled), busy or not: what bounds the disk the
     *     file takes and how long a restart replays it
     */
    public record AofRewrite(@NotNull DataSize minSize, @NotNull DataSize quietBelow, @NotNull Duration quietFor,
            @NotNull DataSize maxSize) {}

    /** Redis's {@code appendfsync} policies. */
    public enum Appendfsync {
        /** fsync before answering each write (concurrent clients' writes share one fsync per event-loop turn) */
        ALWAYS,
        /** fsync once a second: a crash of the machine loses up to the last second of 202s */
        EVERYSEC,
        /** leave it to the operating system (about 30 s on Linux) */
        NO;

        public String redisValue() {
            return name().toLowerCase(Locale.ROOT);
        }
    }
}
