package io.seckill.warmup;

import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import org.apache.camel.Exchange;
import org.apache.camel.LoggingLevel;
import org.apache.camel.builder.RouteBuilder;
import org.springframework.core.NestedExceptionUtils;

/**
 * The order writer's routes on the warm-up's streams, for as long as the warm-up runs ({@link WarmUp} adds and
 * removes them): step for step those of {@code routes/order-writer.camel.yaml} and
 * {@code routes/order-events.camel.yaml} — the redis-stream consumer with the service's options, the batch write by
 * an OrderWriter ({@link WarmUpWriter}'s, on its schema, bound as {@value #WRITER_BEAN}), the order events wire-tapped and published — so
 * that the compiler sees the path a buyer's order takes. What differs is where things go: the warm-up's streams,
 * schema and events channel ({@code seckill:warm-up:<instance>:events}, which nobody subscribes to), and what a
 * batch that fails becomes: it is dropped with a warning ({@value #DROP}), not written one by one and dead-lettered.
 *
 * <p>The batch write runs under a dead letter channel that may redeliver, as the service's {@code write-orders} runs
 * under {@code batch-errors}: such an error handler calls each step with a callback of its own, whose class the
 * compiler profiles at every step's {@code callback.done}, and copies each exchange first in case it is redelivered.
 * Under Camel's default error handler (no dead letter, no redelivery) neither happened, and the service's first batch
 * at a sale threw away the code compiled without them. A failed warm-up batch is tried once more, then dropped.
 */
final class WarmUpWriterRoute extends RouteBuilder {

    static final String WRITER = "warm-up-writer";
    static final String WRITE = "warm-up-write-orders";
    static final String EVENTS = "warm-up-order-events";
    static final String PUBLISH = "warm-up-publish-order-events";
    static final String DROP = "warm-up-drop-batch";
    /** The warm-up's OrderWriter in Camel's registry, called by reference as the service's route calls its own. */
    static final String WRITER_BEAN = "warmUpOrderWriter";

    private final RedisKeys warmUpKeys;
    private final StreamProperties streams;
    private final String eventsChannel;

    /** @param warmUpKeys the warm-up's layout: its streams, and its events channel */
    WarmUpWriterRoute(RedisKeys warmUpKeys, StreamProperties streams) {
        this.warmUpKeys = warmUpKeys;
        this.streams = streams;
        this.eventsChannel = warmUpKeys.named("events");
    }

    /** The warm-up's routes, in the order they are stopped: the reader first. */
    static String[] ids() {
        return new String[] {WRITER, WRITE, EVENTS, PUBLISH, DROP};
    }

    @Override
    public void configure() {
        from("redis-stream:" + warmUpKeys.orderStreamsCsv() + "?group=" + streams.group()
                + "&consumerName=RAW(" + streams.consumerName() + ")&batchSize=" + streams.batchSize()
                + "&block=" + streams.blockMillis() + "&concurrentConsumers=" + streams.readersPerShard()
                + "&maxDeliveries={{seckill.sweeper.max-deliveries}}&deleteAfterAck=true"
                + "&keepAlive={{bean:pendingSweeper.keepAliveMillis}}&readPermit=#bean:consumerNameLease")
                .routeId(WRITER)
                .to("direct:" + WRITE);

        from("direct:" + WRITE).routeId(WRITE)
                .errorHandler(deadLetterChannel("direct:" + DROP).maximumRedeliveries(1))
                .setVariable("entries", simple("${body}"))
                .bean(WRITER_BEAN, "writeBatch(${body}, ${header.CamelRedisStreamNewEntries})")
                .wireTap("direct:" + EVENTS);

        from("direct:" + EVENTS).routeId(EVENTS)
                .filter().method("orderEventMessages", "any")
                .to("direct:" + PUBLISH);

        from("direct:" + PUBLISH).routeId(PUBLISH)
                .setHeader("CamelRedis.Channel", constant(eventsChannel))
                .setHeader("CamelRedis.Message").method("orderEventMessages", "of")
                .to("spring-redis://?command=PUBLISH&redisTemplate=#stringRedisTemplate");

        // Handled, so the reader acknowledges the batch: the warm-up's stream is deleted with it anyway.
        from("direct:" + DROP).routeId(DROP)
                .setVariable("reason").exchange(WarmUpWriterRoute::reason)
                .log(LoggingLevel.WARN, "Warm-up: a batch of ${variable.entries.size} orders was not written, dropped: "
                        + "${variable.reason}");
    }

    /** The database's own words ("Table ... not found"): Spring's translation of them reads as bad SQL grammar. */
    private static String reason(Exchange exchange) {
        return NestedExceptionUtils.getMostSpecificCause(exchange.getProperty(Exchange.EXCEPTION_CAUGHT,
                Exception.class)).getMessage();
    }
}
