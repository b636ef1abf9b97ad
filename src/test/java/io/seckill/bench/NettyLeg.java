package io.seckill.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * Leg 2b of bench/run.sh: H2, the API on the netty-http engine with the rate limits off, a service of its own: the
 * intake at each connection count, then at its best alternated with the reference controller's on the leg's Redis,
 * the sold-out path, and a steady load at half its own rate.
 *
 * <p>Why alternated: leg 1 measures the controller twenty minutes before this leg, and the machine's pace moved by up
 * to a third between the two on shared hosts (bench/runs: the same code at 112–181 % of the controller from night to
 * night). Here both are warmed as long, then measured in turn, each at its own best connection count (Tomcat's, leg
 * 1's, is not netty-http's: 64 against 256 on 2026-11-29), and the medians of the rounds are compared: what the
 * machine does meanwhile falls on both.
 */
final class NettyLeg {

    /** The medians of the alternated rounds, accepted orders/s, and netty-http's connection count in them. */
    record Result(int rate, int reference, int connections) {
    }

    private final RunContext context;

    NettyLeg(RunContext context) {
        this.context = context;
    }

    /**
     * WARM_UP_CONNECTIONS: leg 1's best connection count, the service warmed LONG_WARM_UP seconds at it; then its own
     * best of BENCH_CONNECTIONS; REFERENCE_BEST: the controller's best count in leg 1, at which it is warmed as long.
     * Then BENCH_NETTY_ROUNDS rounds of the two in turn, each at its best.
     */
    Result measure(int warmUpConnections, int referenceBest, int longWarmUp) throws Exception {
        BenchSettings settings = context.settings();
        WrkIntake wrk = new WrkIntake(context);
        ServiceLeg leg = ServiceLeg.start(context, "netty", "service-netty.log", ServiceLeg.THROUGHPUT_WINDOW,
                List.of("--seckill.api.engine=netty-http"), ServiceLeg.NO_RATE_LIMITS);
        ChildProcesses.say("netty-http engine: warming up, " + longWarmUp + " s of wrk at " + warmUpConnections
                + " connections");
        wrk.intake(leg, "netty-warm-up", warmUpConnections, longWarmUp, "wrk-netty-warm-up.txt", false);
        int best = WrkIntake.best(settings.connections(), connections -> {
            ChildProcesses.say("netty-http engine: " + settings.intakeSeconds() + " s of wrk at " + connections
                    + " connections");
            leg.rewriteAppendOnlyFile();
            return wrk.intake(leg, "netty at " + connections, connections, settings.intakeSeconds(),
                    levelLog(connections), false);
        }).connections();
        List<String> rates = new ArrayList<>();
        List<String> references = new ArrayList<>();
        ChildProcesses.say("reference beside it: starting the plain Spring MVC controller on its Redis");
        ReferenceController.Running controller = context.reference().start(context.processes(),
                settings.javaOptions(), leg.service(), context.admitScript(), context.log("reference-netty.log"));
        try {
            ChildProcesses.say("reference beside it: warming up, " + longWarmUp + " s of wrk at " + referenceBest
                    + " connections");
            referenceIntake(leg, controller, "warm-up", referenceBest, longWarmUp, "wrk-netty-reference-warm-up.txt");
            for (int round = 1; round <= settings.nettyRounds(); round++) {
                String of = round + " of " + settings.nettyRounds();
                leg.rewriteAppendOnlyFile();
                Wrk.Result netty = wrk.intake(leg, "netty " + round, best, settings.intakeSeconds(),
                        nettyLog(round), false);
                rates.add(netty.rate());
                leg.rewriteAppendOnlyFile();
                Wrk.Result reference = referenceIntake(leg, controller, String.valueOf(round), referenceBest,
                        settings.intakeSeconds(), referenceLog(round));
                references.add(reference.rate());
                ChildProcesses.say("round " + of + ": netty-http " + netty.rate() + " accepted/s, the controller "
                        + reference.rate());
            }
        } finally {
            controller.stop();
        }
        Result result = new Result(median(rates), median(references), best);
        ChildProcesses.say("netty-http engine: medians " + result.rate() + " accepted/s at " + best
                + " connections against the controller's " + result.reference());
        wrk.soldOut(leg, "netty-sold-out", best, "wrk-netty-sold-out.txt");
        leg.awaitStreamEmpty();
        new SteadyLoads(context).service(leg, "h2, netty-http", result.rate() / 2, "steady-load-h2-netty.txt");
        context.facts().note("rss_netty", ProcessReadings.peakRssMb(leg.service().pid()));
        leg.service().stop();
        return result;
    }

    /** The results file of the netty-http engine's intake at CONNECTIONS, before the rounds. */
    static String levelLog(int connections) {
        return "wrk-netty-at-" + connections + ".txt";
    }

    /** The results file of round ROUND (from 1) of the netty-http engine's intake. */
    static String nettyLog(int round) {
        return "wrk-netty-" + round + ".txt";
    }

    /** The results file of round ROUND (from 1) of the controller's intake beside it. */
    static String referenceLog(int round) {
        return "wrk-netty-reference-" + round + ".txt";
    }

    private Wrk.Result referenceIntake(ServiceLeg leg, ReferenceController.Running controller, String title,
            int connections, int seconds, String results) throws Exception {
        Wrk.Result result = context.wrk().run(controller.base(), leg.newVoucher("reference beside netty " + title,
                ServiceLeg.MAX_STOCK), connections, seconds, 202, "orders", false, context.log(results));
        leg.service().checkAlive();
        return result;
    }

    private static int median(List<String> rates) {
        Double median = Figures.number(Figures.median(rates));
        return median == null ? 0 : median.intValue();
    }
}
