package io.seckill.bench;

import java.util.List;

/**
 * The admission script alone at a steady rate, straight to Redis (EVALSHA, open loop as {@link SteadyLoad}): the
 * latency Redis itself gives at that rate on this machine's disk, the floor under the service's POST latency. Each
 * request is a new order of a new buyer: every argument "__n__" becomes the request's number (from 1).
 *
 * <pre>script REDIS_PORT RATE SECONDS MIN_WARM_UP MAX_WARM_UP CONNECTIONS SHA NUMKEYS KEY... ARG...</pre>
 */
final class ScriptLoad {

    private ScriptLoad() {
    }

    static void run(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        long rate = Long.parseLong(args[1]);
        int seconds = Integer.parseInt(args[2]);
        int minWarmUpSeconds = Integer.parseInt(args[3]);
        int maxWarmUpSeconds = Integer.parseInt(args[4]);
        int connections = Integer.parseInt(args[5]);
        String[] command = new String[args.length - 5];
        command[0] = "EVALSHA";
        System.arraycopy(args, 6, command, 1, args.length - 6);

        // Every answer's latency, warm-up too: the percentiles are the measured seconds', the picture every second's.
        LatencyTimeline latencies = new LatencyTimeline(maxWarmUpSeconds + seconds);
        OutcomeCounts outcomes = new OutcomeCounts();
        OpenLoop<RespConnection> load = new OpenLoop<>(rate, minWarmUpSeconds, maxWarmUpSeconds, seconds,
                connections, () -> new RespConnection(port),
                (redis, i, due, measured) -> {
            String n = Long.toString(i + 1);
            String[] request = command.clone();
            for (int a = 0; a < request.length; a++) {
                if ("__n__".equals(request[a])) {
                    request[a] = n;
                }
            }
            Object reply = redis.call(request);
            latencies.record((int) (i / rate), System.nanoTime() - due);
            if (measured) {
                // The script answers {code}: 0 accepted, else why not; an error comes back as "-ERR ...".
                outcomes.add(reply instanceof List<?> values && !values.isEmpty() ? "code_" + values.get(0) : "error");
            }
        });
        double elapsed = load.await();
        load.print("script", elapsed);
        outcomes.print("script");
        latencies.printPercentiles("script", load.warmUpSeconds(), load.endSecond());
        ResultLines.print("script_count_by_second", latencies.countsBySecond(0, load.endSecond()));
        ResultLines.print("script_p99_ms_by_second", latencies.p99MillisBySecond(0, load.endSecond()));
    }
}
