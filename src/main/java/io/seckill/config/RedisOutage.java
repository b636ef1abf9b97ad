package io.seckill.config;

import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import io.lettuce.core.RedisLoadingException;
import io.lettuce.core.RedisReadOnlyException;
import java.io.IOException;
import java.util.Optional;
import java.util.Set;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.data.redis.RedisSystemException;

/**
 * How a failure met a Redis that could not be used (down, restarting, loading its append-only file, failing
 * over), if it did: for the API to answer 503 REDIS_UNAVAILABLE instead of 500, and for background work to wait
 * quietly instead of logging a stack trace on every attempt.
 *
 * <p>While the client is disconnected commands fail at once ({@code REJECT_COMMANDS},
 * {@link RedisClientConfiguration}): such a command never reached Redis, so nothing was done. A command that was sent
 * and got no answer is different: it may have run. That is one that timed out, or whose connection broke under it:
 * Lettuce fails it with the socket's exception ("Connection reset"), or keeps it and sends it again after the
 * reconnect, where it may time out. "Connection disconnected" and "Connection closed"
 * ({@code DefaultEndpoint.notifyDrainQueuedCommands}: a client without reconnects, or shutting down) are given alike
 * to every command the client holds, those written to the socket and awaiting their answer included, so they cannot
 * mean "not sent" either: a killed master may have run and replicated the script.
 */
public enum RedisOutage {

    /** The command never ran: nothing changed. */
    UNREACHABLE,
    /** Sent, but no answer (timed out, or the connection broke): the command may have run. */
    NO_ANSWER;

    /** What Lettuce says about a command it rejected without sending it. */
    private static final String NOT_SENT = "Currently not connected. Commands are rejected.";
    /** What Lettuce says about every command it held when the connection went: sent or not, it cannot tell. */
    private static final Set<String> DROPPED_WITH_CONNECTION = Set.of("Connection disconnected", "Connection closed");
    /** Error replies of a Redis that is up but cannot serve for a moment (replication, cluster failover). */
    private static final Set<String> SERVER_NOT_READY = Set.of("MASTERDOWN", "CLUSTERDOWN", "TRYAGAIN");

    /** The outage behind a failure, looking through every wrapper (Spring, Camel, futures). */
    public static Optional<RedisOutage> behind(Throwable failure) {
        boolean fromRedisClient = false;
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof RedisCommandTimeoutException || droppedWithConnection(cause)) {
                return Optional.of(NO_ANSWER);
            }
            if (cause instanceof RedisConnectionFailureException || cause instanceof RedisConnectionException
                    || cause instanceof RedisLoadingException || cause instanceof RedisReadOnlyException
                    || notSent(cause) || serverNotReady(cause)) {
                return Optional.of(UNREACHABLE);
            }
            fromRedisClient |= cause instanceof RedisException || cause instanceof RedisSystemException;
            // The connection broke while the command was out (Lettuce fails the command it was reading the answer
            // of with the socket's exception); only through the Redis client, not, say, a JDBC driver's.
            if (fromRedisClient && cause instanceof IOException) {
                return Optional.of(NO_ANSWER);
            }
        }
        return Optional.empty();
    }

    private static boolean notSent(Throwable cause) {
        return cause.getClass() == RedisException.class && NOT_SENT.equals(cause.getMessage());
    }

    private static boolean droppedWithConnection(Throwable cause) {
        return cause.getClass() == RedisException.class && DROPPED_WITH_CONNECTION.contains(cause.getMessage());
    }

    private static boolean serverNotReady(Throwable cause) {
        if (!(cause instanceof RedisCommandExecutionException) || cause.getMessage() == null) {
            return false;
        }
        return SERVER_NOT_READY.contains(cause.getMessage().split(" ", 2)[0]);
    }
}
