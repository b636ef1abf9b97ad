package io.seckill.api;

import io.lettuce.core.resource.DefaultEventLoopGroupProvider;
import io.lettuce.core.resource.EventLoopGroupProvider;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.nio.NioEventLoopGroup;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.EventExecutorGroup;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.ImmediateEventExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The I/O threads ({@code seckill-io-*}) that the API's Netty server and the Redis client share with the netty-http
 * engine, {@code seckill.api.io-threads} of them. An order request is read on one, its admission script's answer is
 * read on the Redis connection's, and the answer is written on the request's: where the two are one thread, the
 * answer goes out where Redis's reply came in, without handing it to another thread and waking that one. With Netty's
 * and Lettuce's own threads (four and two on two CPUs) the JVM spent about a fifth more CPU per accepted order
 * (docs/performance.md, "One set of I/O threads").
 *
 * <p>Lettuce asks this provider for its event loops, so every Redis connection of the service (the template's, the
 * order requests' own, Pub/Sub, the stream readers') does its I/O here. Nothing may wait for Redis on these threads,
 * or it waits for itself: no route runs on them (the API's routes run on Camel's worker pool), and what completes on
 * them (an admission's future, the rest of the order route, its answer) sends and never waits. Shut down once the
 * Redis client and the server are closed.
 */
final class SharedIoThreads implements EventLoopGroupProvider {

    private final NioEventLoopGroup loops;
    /** Any other kind of loop Lettuce might ask for (a native transport on the class path); none is used today. */
    private final DefaultEventLoopGroupProvider others = new DefaultEventLoopGroupProvider(1);

    SharedIoThreads(int threads) {
        this.loops = new NioEventLoopGroup(threads, new DefaultThreadFactory("seckill-io"));
    }

    /** {@code seckill.api.io-threads}, or 0: one per two CPUs, at least one (one was the fastest on two CPUs). */
    static int count(int setting, int cpus) {
        return setting > 0 ? setting : Math.max(1, cpus / 2);
    }

    /** The loops, for the Netty server's child channels. */
    NioEventLoopGroup loops() {
        return loops;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T extends EventLoopGroup> T allocate(Class<T> type) {
        return type.isInstance(loops) ? (T) loops : others.allocate(type);
    }

    @Override
    public int threadPoolSize() {
        return loops.executorCount();
    }

    /** The shared loops outlive a Redis client that lets them go: {@link #close()} ends them. */
    @Override
    public Future<Boolean> release(EventExecutorGroup group, long quietPeriod, long timeout, TimeUnit unit) {
        return group == loops ? ImmediateEventExecutor.INSTANCE.newSucceededFuture(true)
                : others.release(group, quietPeriod, timeout, unit);
    }

    @Override
    public Future<Boolean> shutdown(long quietPeriod, long timeout, TimeUnit unit) {
        return others.shutdown(quietPeriod, timeout, unit);
    }

    void close() {
        others.shutdown(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
        loops.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(3, TimeUnit.SECONDS);
    }
}
