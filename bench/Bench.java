import com.sun.tools.attach.VirtualMachine;
import java.io.BufferedInputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.DelayQueue;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * The Java side of bench/run.sh: the measurements wrk and redis-benchmark cannot make. Compiled by run.sh against
 * the packaged service's own libraries (BOOT-INF/lib), so the H2 driver is the very one the service writes with.
 * Every command prints its results as {@code key=value} lines for run.sh to read.
 *
 * <pre>
 * load   URL VOUCHER RATE SECONDS MIN_WARM_UP MAX_WARM_UP SAMPLE_EVERY POLL_MS CONNECTIONS
 *        orders at a steady rate (open loop), unmeasured until steady (MIN_WARM_UP to MAX_WARM_UP seconds), then
 *        SECONDS measured: POST latency, and 202 → row by polling GET /api/orders/{id}
 * flash  URL VOUCHER REQUESTS BUYERS CONCURRENCY SEED FILE
 *        a flash crowd; writes each accepted order as orderId,userId to FILE
 * route  PID ROUTE_ID start|stop
 *        starts or stops a Camel route of the service over JMX (attach API)
 * script REDIS_PORT RATE SECONDS MIN_WARM_UP MAX_WARM_UP CONNECTIONS SHA NUMKEYS KEY... ARG...
 *        the admission script alone at a steady rate (open loop, the same warm-up), straight to Redis: its latency
 * drain  PID REDIS_PORT STREAM EXPECTED ROUTE_ID
 *        starts the stopped writer route and times the backlog in STREAM to empty
 * jdbc   JDBC_URL USER ROWS BATCH SCHEMA_SQL INSERT_SQL VOUCHER
 *        the same rows as the backlog, raw JDBC batches (one commit each) into a fresh database
 * pay    URL FILE EVERY
 *        pays one in EVERY of the orders in FILE (orderId,userId lines), each as soon as it is written
 * statuses JDBC_URL USER VOUCHER
 *        a voucher's orders by status, its distinct live buyers and its sold count
 * verify JDBC_URL USER FLASH_VOUCHER|- FLASH_FILE|- VOUCHER=ROWS...
 *        the database against what the run accepted
 * </pre>
 */
public class Bench {

    public static void main(String[] args) throws Exception {
        if (args.length == 0) {
            throw new IllegalArgumentException("usage: Bench load|script|flash|route|drain|jdbc|verify|pay|statuses ...");
        }
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        switch (args[0]) {
            case "load" -> SteadyLoad.run(rest);
            case "flash" -> FlashCrowd.run(rest);
            case "route" -> Routes.run(rest);
            case "drain" -> Drain.run(rest);
            case "script" -> ScriptLoad.run(rest);
            case "jdbc" -> JdbcBaseline.run(rest);
            case "verify" -> Verify.run(rest);
            case "pay" -> Payments.run(rest);
            case "statuses" -> Statuses.run(rest);
            default -> throw new IllegalArgumentException("unknown command " + args[0]);
        }
    }

    static void print(String key, Object value) {
        System.out.println(key + "=" + value);
    }

    static String millis(long nanos) {
        return String.format(Locale.ROOT, "%.2f", nanos / 1e6);
    }

    /** Latencies in nanoseconds; percentile by rank in the sorted values. */
    static final class Latencies {
        private long[] values = new long[1 << 16];
        private int size;

        synchronized void add(long nanos) {
            if (size == values.length) {
                values = Arrays.copyOf(values, size * 2);
            }
            values[size++] = nanos;
        }

        synchronized int size() {
            return size;
        }

        synchronized long percentile(double p) {
            if (size == 0) {
                return -1;
            }
            long[] sorted = Arrays.copyOf(values, size);
            Arrays.sort(sorted);
            int rank = (int) Math.ceil(p / 100.0 * size) - 1;
            return sorted[Math.max(0, Math.min(size - 1, rank))];
        }

        void print(String prefix) {
            Bench.print(prefix + "_count", size());
            for (double p : new double[] {50, 99, 99.9}) {
                long value = percentile(p);
                Bench.print(prefix + "_p" + String.valueOf(p).replace(".0", "").replace(".", ""),
                        value < 0 ? "n/a" : millis(value));
            }
        }
    }

    private static final Pattern ORDER_ID = Pattern.compile("\"orderId\"\\s*:\\s*\"(\\d+)\"");
    private static final Pattern CODE = Pattern.compile("\"code\"\\s*:\\s*\"(\\w+)\"");

    static String orderId(String body) {
        Matcher matcher = ORDER_ID.matcher(body);
        if (!matcher.find()) {
            throw new IllegalStateException("a 202 without an orderId: " + body);
        }
        return matcher.group(1);
    }

    /** "202", or the status and the problem's code: "409_SOLD_OUT". */
    static String outcome(Http.Response response) {
        if (response.status() == 202) {
            return "202";
        }
        Matcher matcher = CODE.matcher(response.body());
        return response.status() + (matcher.find() ? "_" + matcher.group(1) : "");
    }

    static void printOutcomes(String prefix, Map<String, LongAdder> outcomes) {
        new TreeMap<>(outcomes).forEach((outcome, count) -> print(prefix + "_outcome_" + outcome, count.sum()));
    }

    /** One CRLF- (or LF-) terminated line of a byte stream, without its terminator: HTTP's and RESP's framing. */
    static String line(InputStream in, String whenClosed) throws IOException {
        StringBuilder line = new StringBuilder(64);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new EOFException(whenClosed);
            }
            if (c != '\r') {
                line.append((char) c);
            }
        }
        return line.toString();
    }

    static String perSecond(double value) {
        return String.format(Locale.ROOT, "%.0f", value);
    }
}

/**
 * A blocking HTTP/1.1 client on one keep-alive connection, just enough for this API. The JDK's HttpClient spent
 * about five times its CPU per request here, CPU the generator takes from the service on a 2-core machine.
 * Reconnects when the server closes the connection (Tomcat does after 100 requests, for wrk too), and sends a
 * request again only when a kept-alive connection turns out closed before any answer.
 */
final class Http implements Closeable {

    record Response(int status, String body) {
    }

    private final String host;
    private final int port;
    private Socket socket;
    private BufferedInputStream in;
    private OutputStream out;

    Http(URI base) {
        this.host = base.getHost();
        this.port = base.getPort();
    }

    Response postOrder(long voucherId, long userId) throws IOException {
        return exchange("POST /api/vouchers/" + voucherId + "/orders HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nX-User-Id: " + userId + "\r\nContent-Length: 0\r\n\r\n");
    }

    /** Unsigned: the bench's service has no payment signing secret, and the loopback pays without one. */
    Response payOrder(String orderId, long userId) throws IOException {
        return exchange("POST /api/orders/" + orderId + "/payment HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nX-User-Id: " + userId + "\r\nContent-Length: 0\r\n\r\n");
    }

    /** As its buyer: the service answers an order to its own buyer only. */
    Response getOrder(String orderId, long userId) throws IOException {
        return exchange("GET /api/orders/" + orderId + " HTTP/1.1\r\nHost: " + host + ":" + port
                + "\r\nX-User-Id: " + userId + "\r\n\r\n");
    }

    private Response exchange(String request) throws IOException {
        boolean keptAlive = socket != null;
        try {
            return send(request);
        } catch (StaleConnectionException e) {
            close();
            if (!keptAlive) {
                throw e;
            }
            return exchange(request);
        } catch (IOException e) {
            close();
            throw e;
        }
    }

    private Response send(String request) throws IOException {
        if (socket == null) {
            socket = new Socket(host, port);
            socket.setTcpNoDelay(true);
            socket.setSoTimeout(60_000);
            in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
            out = socket.getOutputStream();
        }
        int first;
        try {
            out.write(request.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            first = in.read();
        } catch (SocketTimeoutException e) {
            throw e;
        } catch (IOException e) {
            throw new StaleConnectionException(e);
        }
        if (first < 0) {
            throw new StaleConnectionException(null);
        }
        return read((char) first + line());
    }

    /** Nothing came back: the connection was closed (or reset) before the request reached the service. */
    private static final class StaleConnectionException extends IOException {
        private static final long serialVersionUID = 1L;

        StaleConnectionException(IOException cause) {
            super("the connection was closed before any answer", cause);
        }
    }

    private Response read(String statusLine) throws IOException {
        int status = Integer.parseInt(statusLine.substring(9, 12));
        int length = -1;
        boolean chunked = false;
        boolean closing = false;
        for (String header = line(); !header.isEmpty(); header = line()) {
            String lower = header.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-length:")) {
                length = Integer.parseInt(lower.substring(15).trim());
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            } else if (lower.startsWith("connection:") && lower.contains("close")) {
                closing = true;
            }
        }
        StringBuilder body = new StringBuilder();
        if (chunked) {
            for (int size = chunkSize(); size > 0; size = chunkSize()) {
                body.append(new String(in.readNBytes(size), StandardCharsets.UTF_8));
                line();
            }
            while (!line().isEmpty()) {
                // trailers: none expected
            }
        } else if (length > 0) {
            body.append(new String(in.readNBytes(length), StandardCharsets.UTF_8));
        }
        if (closing) {
            close();
        }
        return new Response(status, body.toString());
    }

    private int chunkSize() throws IOException {
        String line = line();
        int extension = line.indexOf(';');
        return Integer.parseInt((extension < 0 ? line : line.substring(0, extension)).trim(), 16);
    }

    private String line() throws IOException {
        return Bench.line(in, "connection closed mid-response");
    }

    @Override
    public void close() {
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException e) {
                // closing a connection we are done with
            }
            socket = null;
        }
    }
}

/**
 * Orders at a steady rate, each sent when it is due whatever the answers before it (open loop, as wrk2 does):
 * CONNECTIONS workers take the next due time in turn, and a POST's latency counts from its due time, so a slow
 * answer cannot hide the requests that queued behind it. For one order in SAMPLE_EVERY, pollers GET
 * /api/orders/{id} every POLL_MS from its 202 until it answers 200: the time from the 202 to the row in the
 * database, an upper bound within one poll interval.
 */
final class SteadyLoad {

    private static final long SAMPLE_DEADLINE_NANOS = TimeUnit.SECONDS.toNanos(60);
    private static final int POLLERS = 2;

    /**
     * An order of USER_ID followed to its row; SECOND: the load's second its request was due in; MEASURED: false for
     * the warm-up's, followed only to warm the GET path.
     */
    private record Sample(String orderId, long userId, int second, long acceptedAt, long due, boolean measured)
            implements Delayed {
        @Override
        public long getDelay(TimeUnit unit) {
            return unit.convert(due - System.nanoTime(), TimeUnit.NANOSECONDS);
        }

        @Override
        public int compareTo(Delayed other) {
            return Long.compare(due, ((Sample) other).due);
        }
    }

    static void run(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        long voucherId = Long.parseLong(args[1]);
        long rate = Long.parseLong(args[2]);
        long seconds = Long.parseLong(args[3]);
        long minWarmUpSeconds = Long.parseLong(args[4]);
        long maxWarmUpSeconds = Long.parseLong(args[5]);
        int sampleEvery = Integer.parseInt(args[6]);
        long pollNanos = TimeUnit.MILLISECONDS.toNanos(Long.parseLong(args[7]));
        int connections = Integer.parseInt(args[8]);

        Bench.Latencies post = new Bench.Latencies();
        Bench.Latencies endToEnd = new Bench.Latencies();
        // By second of the POST's due time, as the POSTs' own worst: the longest 202 -> row (-1: never seen).
        AtomicLongArray endToEndWorst = new AtomicLongArray((int) (maxWarmUpSeconds + seconds));
        Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
        LongAdder unseen = new LongAdder();
        DelayQueue<Sample> samples = new DelayQueue<>();
        OpenLoop<Http> senders = new OpenLoop<>(rate, minWarmUpSeconds, maxWarmUpSeconds, seconds, connections,
                () -> new Http(url),
                (http, i, due, measured) -> {
            long userId = i + 1;
            Http.Response response = http.postOrder(voucherId, userId);
            long answered = System.nanoTime();
            if (measured) {
                outcomes.computeIfAbsent(Bench.outcome(response), k -> new LongAdder()).increment();
                if (response.status() == 202) {
                    post.add(answered - due);
                }
            }
            // The warm-up's orders are followed too, unmeasured: GET /api/orders/{id} is a path wrk never takes,
            // and left cold it stalled the first seconds of the measured minute (its p99 on netty-http: 1.3 s).
            if (response.status() == 202 && i % sampleEvery == 0) {
                samples.add(new Sample(Bench.orderId(response.body()), userId, (int) (i / rate), answered,
                        answered, measured));
            }
        });
        ExecutorService pollers = Executors.newFixedThreadPool(POLLERS);
        for (int p = 0; p < POLLERS; p++) {
            pollers.submit(() -> {
                try (Http http = new Http(url)) {
                    while (!senders.done() || !samples.isEmpty()) {
                        Sample sample = samples.poll(100, TimeUnit.MILLISECONDS);
                        if (sample == null) {
                            continue;
                        }
                        Http.Response response;
                        try {
                            response = http.getOrder(sample.orderId(), sample.userId());
                        } catch (IOException e) {
                            response = new Http.Response(-1, "");
                        }
                        long now = System.nanoTime();
                        if (response.status() == 200) {
                            if (sample.measured()) {
                                endToEnd.add(now - sample.acceptedAt());
                                endToEndWorst.accumulateAndGet(sample.second(), now - sample.acceptedAt(),
                                        Math::max);
                            }
                        } else if (now - sample.acceptedAt() > SAMPLE_DEADLINE_NANOS) {
                            if (sample.measured()) {
                                unseen.increment();
                                endToEndWorst.set(sample.second(), Long.MAX_VALUE);
                            }
                        } else {
                            samples.add(new Sample(sample.orderId(), sample.userId(), sample.second(),
                                    sample.acceptedAt(), now + pollNanos, sample.measured()));
                        }
                    }
                }
                return null;
            });
        }
        double elapsed = senders.await();
        pollers.shutdown();
        pollers.awaitTermination(SAMPLE_DEADLINE_NANOS + TimeUnit.SECONDS.toNanos(10), TimeUnit.NANOSECONDS);

        long accepted = outcomes.getOrDefault("202", new LongAdder()).sum();
        senders.print("load", elapsed);
        Bench.print("load_accepted", accepted);
        Bench.print("load_not_202", senders.total() - accepted - senders.failures());
        Bench.printOutcomes("load", outcomes);
        post.print("post");
        endToEnd.print("e2e");
        Bench.print("e2e_unseen", unseen.sum());
        Bench.print("e2e_worst_ms_by_second", senders.measuredSeconds(endToEndWorst));
    }
}

/**
 * Requests at a steady rate (open loop): request i is due at start + i / RATE and is sent when it is due, whatever
 * the answers before it, from CONNECTIONS threads with a connection each; its latency counts from when it was due,
 * so a stall cannot hide the requests queued behind it (wrk2's method; wrk2 is not in Debian). A request that fails
 * with an IOException counts as a failure.
 *
 * <p>The measured SECONDS come after a warm-up of the same schedule, unmeasured, that lasts until the load is
 * steady: at least MIN_WARM_UP seconds, then until STEADY_SECONDS seconds in a row each had every request answered
 * within STEADY_MILLIS of its due time, at most MAX_WARM_UP seconds (then the minute is measured anyway and
 * {@code *_warm_up_steady} says false). A steady state is what is measured, and a cold start is not one: the
 * service compiles the paths wrk's warm-up did not take then (GET /api/orders/{id}: its compiler threads went from
 * about 10 to 320-400 ms of CPU a second), and the generator's JVM its own request path. On 2 shared CPUs the first 4 to 25 s of a load had POSTs 3 to 10 times slower than the rest,
 * more than the 1 % a p99 leaves out; a fixed 15 s was not always enough (netty-http, git effcd68). The worst
 * latency of each second, warm-up and minute, is printed: what the warm-up left out is in the log.
 */
final class OpenLoop<C extends Closeable> {

    static final int STEADY_SECONDS = 5;
    static final long STEADY_MILLIS = 100;

    interface Request<C> {
        /** MEASURED: false for the warm-up's requests, whose answers count nowhere. */
        void send(C connection, long request, long due, boolean measured) throws IOException;
    }

    private final ExecutorService threads;
    private final long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200);
    private final long rate;
    private final long seconds;
    /** The first measured request; lowered once by the warm-up's watcher, always to a second not yet due. */
    private volatile long measuredFrom;
    private volatile boolean steady;
    private final LongAdder failures = new LongAdder();
    private final LongAdder warmUpFailures = new LongAdder();
    /** By second of due time: the latest answer (a failure counts as never) and how many were answered. */
    private final AtomicLongArray worst;
    private final AtomicLongArray answered;

    OpenLoop(long rate, long minWarmUpSeconds, long maxWarmUpSeconds, long seconds, int connections,
            Callable<C> connect, Request<C> request) {
        this.rate = rate;
        this.seconds = seconds;
        this.measuredFrom = rate * maxWarmUpSeconds;
        this.worst = new AtomicLongArray((int) (maxWarmUpSeconds + seconds));
        this.answered = new AtomicLongArray(worst.length());
        AtomicLong next = new AtomicLong();
        threads = Executors.newFixedThreadPool(connections);
        for (int c = 0; c < connections; c++) {
            threads.submit(() -> {
                try (C connection = connect.call()) {
                    for (long i = next.getAndIncrement(); i < measuredFrom + total(); i = next.getAndIncrement()) {
                        long due = start + i * 1_000_000_000L / rate;
                        for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                            LockSupport.parkNanos(wait);
                        }
                        // Read once the request is due: the watcher only moves measuredFrom to a second not due yet.
                        boolean measured = i >= measuredFrom;
                        long latency;
                        try {
                            request.send(connection, i, due, measured);
                            latency = System.nanoTime() - due;
                        } catch (IOException e) {
                            (measured ? failures : warmUpFailures).increment();
                            latency = Long.MAX_VALUE;
                        }
                        int second = (int) (i / rate);
                        worst.accumulateAndGet(second, latency, Math::max);
                        answered.incrementAndGet(second);
                    }
                }
                return null;
            });
        }
        threads.shutdown();
        Thread watcher = new Thread(() -> watchWarmUp(minWarmUpSeconds, maxWarmUpSeconds), "warm-up-watcher");
        watcher.setDaemon(true);
        watcher.start();
    }

    /**
     * Ends the warm-up at the first second boundary after MIN_WARM_UP seconds at which the last STEADY_SECONDS were
     * steady. Second s is judged STEADY_MILLIS after its last request was due: by then a steady second has all its
     * answers, and an answer still missing is already later than that.
     */
    private void watchWarmUp(long minWarmUpSeconds, long maxWarmUpSeconds) {
        int inARow = 0;
        long limit = TimeUnit.MILLISECONDS.toNanos(STEADY_MILLIS);
        for (int second = 0; ; second++) {
            long judgeAt = start + (second + 1) * 1_000_000_000L + limit;
            for (long wait = judgeAt - System.nanoTime(); wait > 0; wait = judgeAt - System.nanoTime()) {
                LockSupport.parkNanos(wait);
            }
            inARow = answered.get(second) == rate && worst.get(second) < limit ? inARow + 1 : 0;
            // Two seconds ahead: the one now running may have requests in hand already.
            long from = (System.nanoTime() - start) / 1_000_000_000L + 2;
            if (from >= maxWarmUpSeconds) {
                return;
            }
            if (inARow >= STEADY_SECONDS && from >= minWarmUpSeconds) {
                measuredFrom = from * rate;
                steady = true;
                return;
            }
        }
    }

    /** The first measured request's due time (System.nanoTime). */
    private long measuredFromNanos() {
        return start + measuredFrom * 1_000_000_000L / rate;
    }

    /** The measured requests. */
    long total() {
        return rate * seconds;
    }

    long failures() {
        return failures.sum();
    }

    boolean done() {
        return threads.isTerminated();
    }

    /** Waits for the last request's answer; the seconds from the first measured request's due time. */
    double await() throws InterruptedException {
        threads.awaitTermination(seconds + worst.length() + 600, TimeUnit.SECONDS);
        return (System.nanoTime() - measuredFromNanos()) / 1e9;
    }

    void print(String prefix, double elapsed) {
        // The measured part's start by the clock, for run.sh to pick what Redis and the JVM logged meanwhile.
        Bench.print(prefix + "_measured_from_ms",
                System.currentTimeMillis() - TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - measuredFromNanos()));
        long warmUpSeconds = measuredFrom / rate;
        Bench.print(prefix + "_warm_up_seconds", warmUpSeconds);
        Bench.print(prefix + "_warm_up_steady", steady);
        Bench.print(prefix + "_warm_up_sent", measuredFrom);
        Bench.print(prefix + "_warm_up_failures", warmUpFailures.sum());
        Bench.print(prefix + "_sent", total());
        Bench.print(prefix + "_rate_asked", rate);
        Bench.print(prefix + "_rate_done", Bench.perSecond(total() / elapsed));
        Bench.print(prefix + "_failures", failures());
        // The worst answer of each second (-1: a request failed): a p99 says how late, this says when, and whether
        // it was one long stall or many short ones.
        Bench.print(prefix + "_worst_ms_by_second_warm_up", milliseconds(worst, 0, warmUpSeconds));
        Bench.print(prefix + "_worst_ms_by_second", measuredSeconds(worst));
    }

    /** Per-second nanoseconds (Long.MAX_VALUE: failed) of the measured seconds, as a line of milliseconds. */
    String measuredSeconds(AtomicLongArray bySecond) {
        long warmUpSeconds = measuredFrom / rate;
        return milliseconds(bySecond, warmUpSeconds, warmUpSeconds + seconds);
    }

    private static String milliseconds(AtomicLongArray bySecond, long from, long to) {
        StringBuilder line = new StringBuilder();
        for (int second = (int) from; second < to; second++) {
            long latest = bySecond.get(second);
            line.append(line.isEmpty() ? "" : " ").append(latest == Long.MAX_VALUE ? -1 : latest / 1_000_000);
        }
        return line.toString();
    }
}

/**
 * The admission script alone at a steady rate, straight to Redis (EVALSHA, open loop as {@link SteadyLoad}): the
 * latency Redis itself gives at that rate on this machine's disk, the floor under the service's POST latency. Each
 * request is a new order of a new buyer: every argument "__n__" becomes the request's number (from 1).
 */
final class ScriptLoad {

    static void run(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        long rate = Long.parseLong(args[1]);
        long seconds = Long.parseLong(args[2]);
        long minWarmUpSeconds = Long.parseLong(args[3]);
        long maxWarmUpSeconds = Long.parseLong(args[4]);
        int connections = Integer.parseInt(args[5]);
        String[] command = new String[args.length - 5];
        command[0] = "EVALSHA";
        System.arraycopy(args, 6, command, 1, args.length - 6);

        Bench.Latencies latencies = new Bench.Latencies();
        Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
        OpenLoop<Resp> load = new OpenLoop<>(rate, minWarmUpSeconds, maxWarmUpSeconds, seconds, connections,
                () -> new Resp(port),
                (redis, i, due, measured) -> {
            String n = Long.toString(i + 1);
            String[] request = command.clone();
            for (int a = 0; a < request.length; a++) {
                if ("__n__".equals(request[a])) {
                    request[a] = n;
                }
            }
            Object reply = redis.call(request);
            if (!measured) {
                return;
            }
            latencies.add(System.nanoTime() - due);
            // The script answers {code}: 0 accepted, else why not; an error comes back as "-ERR ...".
            String outcome = reply instanceof List<?> values && !values.isEmpty() ? "code_" + values.get(0) : "error";
            outcomes.computeIfAbsent(outcome, k -> new LongAdder()).increment();
        });
        double elapsed = load.await();
        load.print("script", elapsed);
        Bench.printOutcomes("script", outcomes);
        latencies.print("script");
    }
}

/**
 * A flash crowd: REQUESTS orders from BUYERS buyers drawn at random (so most buyers come back several times),
 * on CONCURRENCY connections, as fast as the service answers. Writes each accepted order as orderId,userId.
 */
final class FlashCrowd {

    static void run(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        long voucherId = Long.parseLong(args[1]);
        int requests = Integer.parseInt(args[2]);
        int buyers = Integer.parseInt(args[3]);
        int concurrency = Integer.parseInt(args[4]);
        long seed = Long.parseLong(args[5]);
        Path acceptedFile = Path.of(args[6]);

        AtomicInteger next = new AtomicInteger();
        Map<String, LongAdder> outcomes = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> accepted = new ConcurrentLinkedQueue<>();
        ExecutorService crowd = Executors.newFixedThreadPool(concurrency);
        long start = System.nanoTime();
        for (int t = 0; t < concurrency; t++) {
            Random random = new Random(seed + t);
            crowd.submit(() -> {
                try (Http http = new Http(url)) {
                    while (next.getAndIncrement() < requests) {
                        long buyer = 1 + random.nextInt(buyers);
                        String outcome;
                        try {
                            Http.Response response = http.postOrder(voucherId, buyer);
                            outcome = Bench.outcome(response);
                            if (response.status() == 202) {
                                accepted.add(Bench.orderId(response.body()) + "," + buyer);
                            }
                        } catch (IOException e) {
                            outcome = "io_error";
                        }
                        outcomes.computeIfAbsent(outcome, k -> new LongAdder()).increment();
                    }
                }
                return null;
            });
        }
        crowd.shutdown();
        crowd.awaitTermination(1, TimeUnit.HOURS);
        double seconds = (System.nanoTime() - start) / 1e9;
        Files.write(acceptedFile, accepted);

        Bench.print("flash_requests", requests);
        Bench.print("flash_seconds", String.format(Locale.ROOT, "%.1f", seconds));
        Bench.print("flash_rate", Bench.perSecond(requests / seconds));
        Bench.print("flash_accepted", accepted.size());
        Bench.printOutcomes("flash", outcomes);
    }
}

/** Starts or stops a route of the running service over JMX, attaching to it by process id. */
final class Routes {

    static void run(String[] args) throws Exception {
        invoke(args[0], args[1], args[2]);
        Bench.print("route_" + args[2], args[1]);
    }

    static void invoke(String pid, String routeId, String operation) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(pid);
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } finally {
            vm.detach();
        }
        try (JMXConnector connector = JMXConnectorFactory.connect(new JMXServiceURL(address))) {
            MBeanServerConnection server = connector.getMBeanServerConnection();
            Set<ObjectName> routes = server.queryNames(
                    new ObjectName("org.apache.camel:type=routes,name=\"" + routeId + "\",*"), null);
            if (routes.size() != 1) {
                throw new IllegalStateException("expected one Camel route " + routeId + " over JMX, found " + routes);
            }
            server.invoke(routes.iterator().next(), operation, null, null);
        }
    }
}

/**
 * The drain of a backlog: starts the (stopped) writer route, then reads XLEN every 100 ms until the stream is
 * empty. The writer acknowledges with XACK + XDEL only after the batch's rows are committed, so an empty stream
 * means every order is in the database.
 */
final class Drain {

    static void run(String[] args) throws Exception {
        String pid = args[0];
        int redisPort = Integer.parseInt(args[1]);
        String stream = args[2];
        long expected = Long.parseLong(args[3]);
        String routeId = args[4];
        try (Resp redis = new Resp(redisPort)) {
            long backlog = redis.integer("XLEN", stream);
            if (backlog != expected) {
                throw new IllegalStateException("backlog is " + backlog + " entries, expected " + expected);
            }
            long start = System.nanoTime();
            Routes.invoke(pid, routeId, "start");
            long length = backlog;
            long halfAt = 0;
            long deadline = start + TimeUnit.MINUTES.toNanos(30);
            while (length > 0) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("stream still holds " + length + " entries after 30 minutes");
                }
                Thread.sleep(100);
                length = redis.integer("XLEN", stream);
                if (halfAt == 0 && length <= backlog / 2) {
                    halfAt = System.nanoTime();
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double secondHalf = (System.nanoTime() - halfAt) / 1e9;
            Bench.print("drain_orders", backlog);
            Bench.print("drain_seconds", String.format(Locale.ROOT, "%.2f", seconds));
            Bench.print("drain_rate", Bench.perSecond(backlog / seconds));
            // The second half runs on a warmed-up JIT; the whole includes the first batches' compilation.
            Bench.print("drain_rate_second_half", Bench.perSecond((backlog - backlog / 2) / secondHalf));
        }
    }

}

/**
 * Just enough RESP for the harness: one command at a time on one connection, its reply read whole. Light on purpose:
 * the drain's polling and the script's steady load must not load the machine they measure.
 */
final class Resp implements Closeable {
    private final Socket socket;
    private final OutputStream out;
    private final BufferedInputStream in;

    /** Authenticated with REDISCLI_AUTH when it is set, as redis-cli is (run.sh exports the embedded password). */
    Resp(int port) throws IOException {
        socket = new Socket("127.0.0.1", port);
        socket.setTcpNoDelay(true);
        out = socket.getOutputStream();
        in = new BufferedInputStream(socket.getInputStream(), 16 * 1024);
        String password = System.getenv("REDISCLI_AUTH");
        if (password != null && !password.isEmpty() && !"OK".equals(call("AUTH", password))) {
            socket.close();
            throw new IOException("Redis refused the password in REDISCLI_AUTH");
        }
    }

    /** A command whose reply is an integer. */
    long integer(String... command) throws IOException {
        if (call(command) instanceof Long value) {
            return value;
        }
        throw new IOException("no integer reply to " + command[0]);
    }

    /** Sends a command and reads its reply: a Long, a String (an error starts with "-"), a List, or null. */
    Object call(String... command) throws IOException {
        StringBuilder request = new StringBuilder("*").append(command.length).append("\r\n");
        for (String part : command) {
            request.append('$').append(part.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(part)
                    .append("\r\n");
        }
        out.write(request.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
        return reply();
    }

    private Object reply() throws IOException {
        int type = in.read();
        String line = line();
        return switch (type) {
            case '+' -> line;
            case '-' -> "-" + line;
            case ':' -> Long.parseLong(line);
            case '$' -> {
                int length = Integer.parseInt(line);
                if (length < 0) {
                    yield null;
                }
                String value = new String(in.readNBytes(length), StandardCharsets.UTF_8);
                line();
                yield value;
            }
            case '*' -> {
                int count = Integer.parseInt(line);
                List<Object> values = new ArrayList<>(Math.max(count, 0));
                for (int i = 0; i < count; i++) {
                    values.add(reply());
                }
                yield count < 0 ? null : values;
            }
            default -> throw new IOException("not a RESP reply: " + (char) type + line);
        };
    }

    private String line() throws IOException {
        return Bench.line(in, "Redis closed the connection");
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}

/**
 * What the database alone can take: the backlog's rows (same ids as run.sh's backlog) written with the
 * service's own schema and insert statement, in JDBC batches of the service's batch size, one transaction per batch
 * as the service's writer commits them, into a fresh database (an H2 file with the service's durability, or an
 * empty PostgreSQL database with the driver's reWriteBatchedInserts as the service sets it).
 */
final class JdbcBaseline {

    private static final Pattern NAMED = Pattern.compile(":#(\\w+)");

    static void run(String[] args) throws Exception {
        String url = args[0];
        String user = args[1];
        int rows = Integer.parseInt(args[2]);
        int batchSize = Integer.parseInt(args[3]);
        String schema = Files.readString(Path.of(args[4]));
        String insert = Files.readString(Path.of(args[5]));
        long voucherId = Long.parseLong(args[6]);

        List<String> parameters = new ArrayList<>();
        Matcher named = NAMED.matcher(statement(insert));
        StringBuilder sql = new StringBuilder();
        while (named.find()) {
            parameters.add(named.group(1));
            named.appendReplacement(sql, "?");
        }
        named.appendTail(sql);

        try (Connection connection = DriverManager.getConnection(url, user, "")) {
            try (Statement ddl = connection.createStatement()) {
                for (String each : statement(schema).split(";")) {
                    if (!each.isBlank()) {
                        ddl.execute(each);
                    }
                }
            }
            connection.setAutoCommit(false);
            OffsetDateTime createdAt = OffsetDateTime.ofInstant(Instant.now(), ZoneOffset.UTC);
            com.sun.management.OperatingSystemMXBean os =
                    (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpuStart = os.getProcessCpuTime();
            // PostgreSQL's work for this connection: its backend process, on this machine (it exits when the
            // connection closes, before run.sh could read it).
            long backend = url.startsWith("jdbc:postgresql:") ? backendPid(connection) : -1;
            long backendCpuStart = backend > 0 ? processCpuMicros(backend) : 0;
            long start = System.nanoTime();
            try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
                for (int i = 1; i <= rows; i++) {
                    Map<String, Object> row = Map.of("orderId", Backlog.orderId(i), "voucherId", voucherId,
                            "userId", (long) i, "createdAt", createdAt,
                            "payBefore", createdAt.plusMinutes(15));
                    for (int p = 0; p < parameters.size(); p++) {
                        statement.setObject(p + 1, row.get(parameters.get(p)));
                    }
                    statement.addBatch();
                    if (i % batchSize == 0 || i == rows) {
                        statement.executeBatch();
                        connection.commit();
                    }
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuPerRow = (os.getProcessCpuTime() - cpuStart) / 1e3 / rows;
            double backendCpuPerRow = backend > 0 ? (processCpuMicros(backend) - backendCpuStart) / (double) rows : 0;
            try (Statement count = connection.createStatement();
                 ResultSet result = count.executeQuery("SELECT COUNT(*) FROM orders")) {
                result.next();
                if (result.getLong(1) != rows) {
                    throw new IllegalStateException("baseline wrote " + result.getLong(1) + " rows, not " + rows);
                }
            }
            Bench.print("jdbc_rows", rows);
            Bench.print("jdbc_seconds", String.format(Locale.ROOT, "%.2f", seconds));
            Bench.print("jdbc_rate", Bench.perSecond(rows / seconds));
            // This JVM's CPU per row (µs), the database's own work with H2; the drain's rows print the same key.
            Bench.print("cpu_us_per_order_jvm", String.format(Locale.ROOT, "%.1f", cpuPerRow));
            if (backend > 0) {
                Bench.print("cpu_us_per_order_postgres", String.format(Locale.ROOT, "%.1f", backendCpuPerRow));
            }
        }
    }

    private static long backendPid(Connection connection) throws SQLException {
        try (Statement query = connection.createStatement();
             ResultSet result = query.executeQuery("SELECT pg_backend_pid()")) {
            result.next();
            return result.getLong(1);
        }
    }

    /** A process's CPU time (user + system, µs) from /proc/PID/stat, read past the name's ")"; Linux's 100 ticks/s. */
    private static long processCpuMicros(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10_000;
    }

    /** The SQL without its comment lines. */
    private static String statement(String text) {
        StringBuilder sql = new StringBuilder();
        for (String line : text.split("\n")) {
            if (!line.strip().startsWith("--")) {
                sql.append(line).append('\n');
            }
        }
        return sql.toString();
    }
}

/**
 * The winners who pay: one in EVERY of the accepted orders (FILE, orderId,userId lines), each paid as its buyer;
 * an order not written yet (409 NOT_CREATED_YET) is paid again shortly. Prints the orders paid and those refused.
 */
final class Payments {

    static void run(String[] args) throws Exception {
        URI url = URI.create(args[0]);
        List<String> accepted = Files.readAllLines(Path.of(args[1]));
        int every = Integer.parseInt(args[2]);
        long paid = 0;
        long refused = 0;
        try (Http http = new Http(url)) {
            for (int i = 0; i < accepted.size(); i++) {
                String[] order = accepted.get(i).split(",");
                if (order.length != 2 || i % every != 0) {
                    continue;
                }
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                Http.Response response = http.payOrder(order[0], Long.parseLong(order[1]));
                while (response.status() == 409 && response.body().contains("NOT_CREATED_YET")
                        && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                    response = http.payOrder(order[0], Long.parseLong(order[1]));
                }
                if (response.status() == 200) {
                    paid++;
                } else {
                    refused++;
                }
            }
        }
        Bench.print("pay_paid", paid);
        Bench.print("pay_refused", refused);
    }
}

/** A voucher's orders in the database: rows by status, distinct buyers of live ones, vouchers.sold. */
final class Statuses {

    static void run(String[] args) throws Exception {
        long voucherId = Long.parseLong(args[2]);
        try (Connection connection = DriverManager.getConnection(args[0], args[1], "")) {
            for (String status : List.of("CREATED", "PAID", "CANCELLED")) {
                Bench.print("status_" + status, single(connection,
                        "SELECT COUNT(*) FROM orders WHERE voucher_id = ? AND status = '" + status + "'", voucherId));
            }
            Bench.print("live_buyers", single(connection, "SELECT COUNT(DISTINCT user_id) FROM orders"
                    + " WHERE voucher_id = ? AND status IN ('CREATED', 'PAID')", voucherId));
            Bench.print("sold", single(connection, "SELECT sold FROM vouchers WHERE id = ?", voucherId));
        }
    }

    private static long single(Connection connection, String sql, long voucherId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(sql)) {
            query.setLong(1, voucherId);
            try (ResultSet result = query.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }
}

/** The ids run.sh gives backlog orders: far above any Snowflake id the service hands out this century. */
final class Backlog {
    static final long FIRST_ORDER_ID = 8_000_000_000_000_000_000L;

    static long orderId(long n) {
        return FIRST_ORDER_ID + n;
    }
}

/**
 * The database after the run, against what the run accepted: the flash crowd's rows are exactly its accepted
 * orders (one per buyer), and every voucher holds as many rows as Redis says it sold.
 */
final class Verify {

    static void run(String[] args) throws Exception {
        String url = args[0];
        String user = args[1];
        int mismatches = 0;
        try (Connection connection = DriverManager.getConnection(url, user, "")) {
            if (!args[2].equals("-")) {
                mismatches += flashCrowd(connection, Long.parseLong(args[2]), Path.of(args[3]));
            }
            for (int i = 4; i < args.length; i++) {
                String[] pair = args[i].split("=");
                long voucher = Long.parseLong(pair[0]);
                long expected = Long.parseLong(pair[1]);
                long found = count(connection, voucher);
                Bench.print("verify_rows_" + voucher, found + "/" + expected);
                if (found != expected) {
                    mismatches++;
                }
            }
        }
        Bench.print("verify_mismatches", mismatches);
    }

    /** The flash crowd's rows are exactly its accepted orders, one per buyer; returns the mismatches. */
    private static int flashCrowd(Connection connection, long flashVoucher, Path acceptedFile) throws Exception {
        Set<String> accepted = new HashSet<>(Files.readAllLines(acceptedFile));
        accepted.removeIf(String::isBlank);
        Set<String> rows = new HashSet<>();
        Set<Long> buyers = new HashSet<>();
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT order_id, user_id FROM orders WHERE voucher_id = ?")) {
            query.setLong(1, flashVoucher);
            try (ResultSet result = query.executeQuery()) {
                while (result.next()) {
                    rows.add(result.getLong(1) + "," + result.getLong(2));
                    buyers.add(result.getLong(2));
                }
            }
        }
        Set<String> missing = new HashSet<>(accepted);
        missing.removeAll(rows);
        Set<String> unexpected = new HashSet<>(rows);
        unexpected.removeAll(accepted);
        Bench.print("verify_flash_rows", rows.size());
        Bench.print("verify_flash_buyers", buyers.size());
        Bench.print("verify_flash_missing", missing.size());
        Bench.print("verify_flash_unexpected", unexpected.size());
        return missing.size() + unexpected.size() + (rows.size() - buyers.size());
    }

    private static long count(Connection connection, long voucherId) throws SQLException {
        try (PreparedStatement query = connection.prepareStatement(
                "SELECT COUNT(*) FROM orders WHERE voucher_id = ? AND status <> 'CANCELLED'")) {
            query.setLong(1, voucherId);
            try (ResultSet result = query.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }
}
