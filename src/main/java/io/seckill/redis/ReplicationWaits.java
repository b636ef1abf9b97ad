package io.seckill.redis;

import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisConnectionStateListener;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@code WAIT}s behind the admissions that ask for replicas' acknowledgement ({@code seckill.redis.replica-acks}),
 * coalesced on the order requests' one connection. WAIT blocks the connection it is sent on until the replicas
 * acknowledge or its timeout passes, and it speaks for every write the connection sent before it: a WAIT per
 * admission held each admission behind the one before's round trip to the replica (695 requests/s against 9,728
 * without, bench/runs/2026-11-25-5cbfdbb-replica-acks.md). So at most one WAIT is out at a time: the admission that
 * finds none out sends it right behind its script (pipelined), and the admissions sent while it is out share the
 * next one, sent as soon as it answers.
 *
 * <p>That next WAIT is sent from a thread of its own, never from the Redis client's I/O thread where the one before
 * answers: a script sent from another thread is queued on that I/O thread's task queue, and a write from the I/O
 * thread itself would overtake it on the wire, acknowledging too early.
 *
 * <p>A WAIT knows only the connection it is sent on: after a reconnect (the client resends the commands left
 * unanswered) a new connection's WAIT knows nothing of the old one's writes and answers at once. An admission during
 * which the connection broke is therefore never counted as acknowledged ({@link #acknowledged}).
 */
public final class ReplicationWaits implements AutoCloseable {

    private static final long WAIT_CHECK_TIMEOUT_SECONDS = 10;

    private final RedisClusterAsyncCommands<String, String> redis;
    private final ReplicaAckProperties properties;
    private final ExecutorService sender;
    private final AtomicLong breaks = new AtomicLong();
    private boolean waitOut;
    private CompletableFuture<Long> next;

    ReplicationWaits(StatefulConnection<String, String> connection, RedisClusterAsyncCommands<String, String> redis,
            ReplicaAckProperties properties) {
        this.redis = redis;
        this.properties = properties;
        this.sender = properties.enabled() ? Executors.newSingleThreadExecutor(runnable -> {
            Thread thread = new Thread(runnable, "replica-waits");
            thread.setDaemon(true);
            return thread;
        }) : null;
        // Called on the I/O thread as the channel closes, before the client reconnects and resends anything.
        connection.addListener(new RedisConnectionStateListener() {
            @Override
            public void onRedisDisconnected(RedisChannelHandler<?, ?> handler) {
                breaks.incrementAndGet();
            }
        });
    }

    /**
     * With acknowledgements asked for, a Redis that refuses {@code WAIT} (an ACL without it, a managed Redis that does
     * not offer it) stops the start: every order would be taken and answered "not confirmed". A Redis that cannot be
     * reached is left to the start-up's state check. {@code WAIT 0 0} answers at once.
     */
    void requireWait() {
        if (!properties.enabled()) {
            return;
        }
        try {
            redis.waitForReplication(0, 0).toCompletableFuture().get(WAIT_CHECK_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RedisCommandExecutionException refused) {
                throw new IllegalStateException("seckill.redis.replica-acks needs Redis's WAIT, which Redis refuses: "
                        + refused.getMessage(), refused);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while checking that Redis offers WAIT", e);
        } catch (TimeoutException e) {
            // Not reachable now: the state check decides whether the start goes on.
        }
    }

    /** Read before the script is sent: what {@link #since} compares with. */
    long connection() {
        return breaks.get();
    }

    /**
     * The WAIT that covers what this thread has just sent on the connection: one sent now, or the next one when one
     * is out. Completes with how many replicas acknowledged, on the Redis client's I/O thread.
     */
    CompletableFuture<Long> covering() {
        CompletableFuture<Long> wait;
        synchronized (this) {
            if (waitOut) {
                if (next == null) {
                    next = new CompletableFuture<>();
                }
                return next;
            }
            waitOut = true;
            wait = new CompletableFuture<>();
        }
        send(wait);
        return wait;
    }

    /**
     * Whether an acknowledgement counts for a script sent when {@link #connection} read {@code connection}: enough
     * replicas, on the connection the script went out on.
     */
    boolean acknowledged(long acknowledgements, long connection) {
        return acknowledgements >= properties.replicaAcks() && breaks.get() == connection;
    }

    private void send(CompletableFuture<Long> into) {
        redis.waitForReplication(properties.replicaAcks(), properties.replicaAckTimeout().toMillis())
                .whenComplete((acknowledgements, failure) -> {
                    answered();
                    if (failure == null) {
                        into.complete(acknowledgements);
                    } else {
                        into.completeExceptionally(failure);
                    }
                });
    }

    /** The WAIT out answered: the admissions sent meanwhile get theirs. */
    private void answered() {
        CompletableFuture<Long> waiting;
        synchronized (this) {
            waiting = next;
            next = null;
            waitOut = waiting != null;
        }
        if (waiting != null) {
            try {
                sender.execute(() -> send(waiting));
            } catch (RejectedExecutionException closing) {
                waiting.completeExceptionally(new RedisConnectionException("The Redis connection is closing"));
            }
        }
    }

    @Override
    public void close() {
        if (sender != null) {
            sender.shutdown();
        }
    }
}
