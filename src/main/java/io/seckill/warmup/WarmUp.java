package io.seckill.warmup;

import io.seckill.api.ApiListener;
import io.seckill.api.WarmUpRequests;
import io.seckill.order.SaleView;
import io.seckill.redis.RedisKeys;
import io.seckill.redis.StreamProperties;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.camel.CamelContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.event.EventListener;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * Runs the order request's path before any buyer does, so that the first second of a sale is served by compiled
 * code: a freshly started JVM interprets it, and a service restarted a minute before a sale sold at a fraction of
 * Redis's speed for minutes. Once the routes run, this sends order requests to the service's own API port
 * ({@link WarmUpLoad}: {@code concurrency} keep-alive connections, each sending its next request once answered),
 * through the real HTTP engine, REST binding, route, sale view and admission script, on three vouchers of its own
 * ({@link WarmUpRequests}) whose keys live apart from every user's and every other instance's
 * ({@link RedisKeys#warmUp}): half of its requests are accepted, a quarter refused as sold out, and a quarter go to a
 * sale that starts again every second ({@link WarmUpRequests#OPENING}: refused NOT_STARTED, from memory once the
 * view knows its start, then accepted from the start until sold out). That sale is what a buyer's sale does at its
 * start; warmed without it, the service met the sale view's start and its own first counted acceptance at a buyer's
 * sale's start, and C2's code that had those branches left out was thrown away there. The accepted ones are
 * written by the order writer's routes into a schema of the warm-up's own ({@link WarmUpWriter},
 * {@link WarmUpWriterRoute}): on a service warmed on its admissions alone, the writer's first minute took half the
 * cores from the sale. Meanwhile readiness is DOWN ({@link WarmUpHealthIndicator}) and the API answers anyone else
 * 503 UNAVAILABLE. It stops after {@code max-duration}, or after {@code min-duration} once the JIT's compilers have
 * little left to do ({@value #SETTLED_COMPILE_MILLIS_PER_SECOND} ms of compiling a second or less,
 * {@value #SETTLED_SECONDS} seconds in a row); then it removes the writer's routes, drops its schema, deletes every
 * key it made, forgets its vouchers in the sale view, and opens the API. No stream entry, row, event or metric of
 * the service's own is left (the HTTP server's and Camel's request counters do count its requests).
 */
@Component
@EnableConfigurationProperties(WarmUpProperties.class)
public class WarmUp {

    /**
     * What the warm-up did, for readiness and the log.
     *
     * @param written the warm-up's orders its writer wrote ({@link WarmUpWriter})
     * @param sales the warm-up's own sales ({@link WarmUpRequests#OPENING}) that started and sold out
     * @param connections the connections its requests went on, one after another ({@link WarmUpLoad})
     */
    public record Outcome(String state, long requests, double seconds, long lastSecondRate, long written,
            long sales, long connections) {

        static Outcome not(String state) {
            return new Outcome(state, 0, 0, 0, 0, 0, 0);
        }
    }

    private static final Logger log = LoggerFactory.getLogger(WarmUp.class);
    private static final long STOCK = 1_000_000_000_000L;
    /**
     * The JIT has compiled the path once its compilers spent less than this of a second compiling (a quarter of a
     * core, summed over the compiler threads: java.lang.management's CompilationMXBean), five seconds in a row. Under
     * the warm-up's load the compilers never fall silent: a tail of recompilations goes on for minutes at 100-400
     * ms a second (bench/runs/2026-11-26-writer-warm-up.md).
     */
    private static final long SETTLED_COMPILE_MILLIS_PER_SECOND = 250;
    private static final int SETTLED_SECONDS = 5;
    private static final int CHUNK = 1000;
    private static final long[] VOUCHERS = {WarmUpRequests.ON_SALE, WarmUpRequests.SOLD_OUT, WarmUpRequests.OPENING};
    private static final String HOST = "127.0.0.1";
    /** Each of the opening voucher's sales: at most this many units, and how long after it is set up it starts. */
    private static final long OPENING_MAX_STOCK = 100;
    private static final long OPENING_DELAY_MILLIS = 300;

    private final WarmUpProperties properties;
    private final WarmUpRequests requests;
    private final StringRedisTemplate redis;
    private final RedisKeys keys;
    private final SaleView saleView;
    private final ObjectProvider<ApiListener> nettyApi;
    private final CamelContext camel;
    private final WarmUpWriter writer;
    private final StreamProperties streams;
    private volatile Outcome outcome;

    WarmUp(WarmUpProperties properties, WarmUpRequests requests, StringRedisTemplate redis, RedisKeys keys,
            SaleView saleView, ObjectProvider<ApiListener> nettyApi, CamelContext camel, WarmUpWriter writer,
            StreamProperties streams) {
        this.camel = camel;
        this.writer = writer;
        this.streams = streams;
        this.properties = properties;
        this.requests = requests;
        this.redis = redis;
        this.keys = keys.warmUp();
        this.saleView = saleView;
        this.nettyApi = nettyApi;
    }

    /** Null while the warm-up runs. */
    public Outcome outcome() {
        return outcome;
    }

    @EventListener(ApplicationReadyEvent.class)
    void start(ApplicationReadyEvent ready) {
        if (!properties.enabled()) {
            finish(Outcome.not("off"));
            return;
        }
        ApiListener netty = nettyApi.getIfAvailable();
        Environment settings = ready.getApplicationContext().getEnvironment();
        int port = netty != null ? netty.port() : settings.getRequiredProperty("local.server.port", Integer.class);
        Thread thread = new Thread(() -> run(port), "seckill-warm-up");
        thread.setDaemon(true);
        thread.start();
    }

    private void run(int port) {
        long buyers = 0;
        Outcome result;
        boolean writing = false;
        try {
            // A warm-up of this instance's killed half-way left its keys and schema: gone before this one starts.
            clean(0);
            prepare();
            // Spring is ready a moment before Camel says it has started every route; the API answers 503 until then.
            while (!camel.isStarted()) {
                Thread.sleep(20);
            }
            writing = startWriter();
            Driven driven = drive(port);
            buyers = driven.requests();
            result = new Outcome("done", driven.requests(), driven.seconds(), driven.lastSecondRate(),
                    writer.written(), driven.sales(), driven.connections());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            result = Outcome.not("interrupted");
        } catch (RuntimeException e) {
            log.warn("Warm-up failed ({}); the API opens without it", e.toString());
            result = Outcome.not("failed: " + e.getMessage());
        }
        if (writing) {
            stopWriter();
        }
        try {
            clean(buyers);
        } catch (RuntimeException e) {
            log.warn("Warm-up's keys (seckill:warm-up:{}:*) not all deleted: {}", keys.instance(), e.toString());
        }
        finish(result);
    }

    /**
     * The writer's routes on the warm-up's streams, into a schema of the warm-up's own ({@link WarmUpWriter}). A
     * database that will not have the schema (a PostgreSQL user without CREATE) leaves the writer cold, not the API
     * shut.
     *
     * @return whether the writer runs
     */
    private boolean startWriter() {
        try {
            writer.open();
            camel.getRegistry().bind(WarmUpWriterRoute.WRITER_BEAN, writer.orderWriter());
            camel.addRoutes(new WarmUpWriterRoute(keys, streams));
            return true;
        } catch (Exception e) {
            // The database's own words ("permission denied for database"): Spring's translation of them reads as
            // bad SQL grammar.
            log.warn("Warm-up: the order writer is not warmed up ({}); the first orders of a sale are written by cold "
                    + "code", NestedExceptionUtils.getMostSpecificCause(e).getMessage());
            stopWriter();
            return false;
        }
    }

    /** Stops and removes the writer's routes (a reader finishes the batch in hand first), then drops its schema. */
    private void stopWriter() {
        for (String route : WarmUpWriterRoute.ids()) {
            try {
                if (camel.getRoute(route) != null) {
                    camel.getRouteController().stopRoute(route);
                    camel.removeRoute(route);
                }
            } catch (Exception e) {
                log.warn("Warm-up: route {} not removed: {}", route, e.toString());
            }
        }
        camel.getRegistry().unbind(WarmUpWriterRoute.WRITER_BEAN);
        try {
            writer.close();
        } catch (RuntimeException e) {
            log.warn("Warm-up: schema {} not dropped: {}", writer.schema(), e.toString());
        }
    }

    private void finish(Outcome result) {
        for (long voucher : VOUCHERS) {
            saleView.changed(voucher);
        }
        outcome = result;
        requests.finished();
        if ("done".equals(result.state())) {
            log.info("Warm-up done: {} order requests on {} connections in {} s, {}/s in its last second, {} orders "
                    + "written, {} sales started and sold out; the API is open", result.requests(),
                    result.connections(), String.format("%.1f", result.seconds()), result.lastSecondRate(),
                    result.written(), result.sales());
        } else {
            log.info("Warm-up {}; the API is open", result.state());
        }
    }

    /** HSET of the vouchers: two on sale since the epoch, never ending, one with its first sale about to start. */
    private void prepare() {
        redis.opsForHash().putAll(keys.voucher(WarmUpRequests.ON_SALE),
                Map.of("stock", Long.toString(STOCK), "beginAt", "0"));
        redis.opsForHash().putAll(keys.voucher(WarmUpRequests.SOLD_OUT), Map.of("stock", "0", "beginAt", "0"));
        openSale(OPENING_MAX_STOCK);
    }

    /**
     * The opening voucher's next sale: {@code units} units from {@value #OPENING_DELAY_MILLIS} ms from now by Redis's
     * clock (the one the script judges the window by), forgotten by the sale view as a voucher whose units came back
     * is.
     *
     * @return whether the sale before it sold out
     */
    private boolean openSale(long units) {
        String voucher = keys.voucher(WarmUpRequests.OPENING);
        Object left = redis.opsForHash().get(voucher, "stock");
        Long now = redis.execute((RedisCallback<Long>) connection -> connection.serverCommands().time());
        redis.opsForHash().putAll(voucher,
                Map.of("stock", Long.toString(units), "beginAt", Long.toString(now + OPENING_DELAY_MILLIS)));
        saleView.changed(WarmUpRequests.OPENING);
        return "0".equals(left);
    }

    /**
     * The units of an opening sale for a warm-up that answered {@code lastSecondRate} requests in its last second: a
     * quarter of them go to the opening voucher, whose sale is on for the last 700 ms of the second, so it meets about
     * a sixth of that rate; half of it sells the sale out half-way, so its SOLD_OUT answers are rehearsed too (a
     * starved warm-up on a slow machine, 460 requests a second, never sold out sales of 100). At most
     * {@value #OPENING_MAX_STOCK}, at least one.
     */
    static long openingStock(long lastSecondRate) {
        return Math.max(1, Math.min(OPENING_MAX_STOCK, lastSecondRate / 12));
    }

    private record Driven(long requests, double seconds, long lastSecondRate, long sales, long connections) {}

    private Driven drive(int port) throws InterruptedException {
        String token = requests.token();
        try (WarmUpLoad load = new WarmUpLoad(buyer -> WarmUpLoad.post(HOST + ":" + port,
                "/api/vouchers/" + voucherOf(buyer) + "/orders",
                Map.of("X-User-Id", Long.toString(buyer), WarmUpRequests.HEADER, token)))) {
            long started = System.nanoTime();
            load.start(HOST, port, properties.concurrency());
            long maxNanos = properties.maxDuration().toNanos();
            long minNanos = properties.minDuration().toNanos();
            CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
            boolean compilerTimed = compiler != null && compiler.isCompilationTimeMonitoringSupported();
            long compiledAtSecond = compilerTimed ? compiler.getTotalCompilationTime() : 0;
            long answeredAtSecond = 0;
            long lastRate = 0;
            int settled = 0;
            long elapsed = 0;
            long sales = 0;
            while (elapsed < maxNanos && (elapsed < minNanos || settled < SETTLED_SECONDS)) {
                Thread.sleep(1000);
                elapsed = System.nanoTime() - started;
                long answered = load.answered();
                lastRate = answered - answeredAtSecond;
                answeredAtSecond = answered;
                if (openSale(openingStock(lastRate))) {
                    sales++;
                }
                long compiled = compilerTimed ? compiler.getTotalCompilationTime() : 0;
                settled = compilerTimed && compiled - compiledAtSecond < SETTLED_COMPILE_MILLIS_PER_SECOND
                        ? settled + 1 : 0;
                compiledAtSecond = compiled;
            }
            load.stop(10, TimeUnit.SECONDS);
            if (!load.unexpected().isEmpty()) {
                log.warn("Warm-up: of its {} order requests, these were not answered 202 or 409: {}", load.sent(),
                        load.unexpected());
            }
            return new Driven(load.sent(), (System.nanoTime() - started) / 1e9, lastRate, sales, load.opened());
        }
    }

    /** Of every four of the warm-up's buyers: two order from the voucher on sale, one from each of the others. */
    private static long voucherOf(long buyer) {
        return switch ((int) (buyer % 4)) {
            case 0 -> WarmUpRequests.SOLD_OUT;
            case 1 -> WarmUpRequests.OPENING;
            default -> WarmUpRequests.ON_SALE;
        };
    }

    /** UNLINK every key the warm-up's orders made, pipelined in chunks: its vouchers, streams, buckets. */
    private void clean(long buyers) {
        List<String> made = new ArrayList<>();
        for (long voucher : VOUCHERS) {
            made.add(keys.voucher(voucher));
            made.add(keys.buyers(voucher));
            for (int address = 0; address <= 0xff; address++) {
                made.add(keys.rateLimit(voucher, "address", "warm-up-" + address));
            }
        }
        for (String stream : keys.orderStreams()) {
            made.add(stream);
            made.add(keys.dueOrdersOf(stream));
        }
        unlink(made);
        List<String> buckets = new ArrayList<>(CHUNK);
        for (long buyer = 1; buyer <= buyers; buyer++) {
            buckets.add(keys.rateLimit(voucherOf(buyer), "buyer", Long.toString(buyer)));
            if (buckets.size() == CHUNK) {
                unlink(buckets);
                buckets.clear();
            }
        }
        unlink(buckets);
    }

    private void unlink(List<String> keyNames) {
        if (keyNames.isEmpty()) {
            return;
        }
        // UNLINK, one key per command: on a Redis Cluster the keys of one call must share a slot.
        redis.executePipelined((RedisCallback<Object>) connection -> {
            for (String key : keyNames) {
                unlinkOne(connection, key);
            }
            return null;
        });
    }

    private static void unlinkOne(RedisConnection connection, String key) {
        connection.keyCommands().unlink(key.getBytes(StandardCharsets.UTF_8));
    }
}
