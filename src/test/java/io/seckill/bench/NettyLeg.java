package io.seckill.bench;

import java.util.List;

/**
 * Leg 2b of bench/run.sh: H2, the API on the netty-http engine with the rate limits off, a service of its own: the
 * intake at leg 1's best connection count, the sold-out path, and a steady load at half its own rate.
 */
final class NettyLeg {

    private final RunContext context;

    NettyLeg(RunContext context) {
        this.context = context;
    }

    /** At leg 1's BEST connection count after LONG_WARM_UP seconds of the same; returns its accepted rate. */
    int measure(int best, int longWarmUp) throws Exception {
        WrkIntake wrk = new WrkIntake(context);
        ServiceLeg leg = ServiceLeg.start(context, "netty", "service-netty.log", ServiceLeg.THROUGHPUT_WINDOW,
                List.of("--seckill.api.engine=netty-http"), ServiceLeg.NO_RATE_LIMITS);
        ChildProcesses.say("netty-http engine: warming up, " + longWarmUp + " s of wrk at " + best + " connections");
        wrk.intake(leg, "netty-warm-up", best, longWarmUp, "wrk-netty-warm-up.txt", false);
        int rate = WrkIntake.rate(wrk.intake(leg, "netty", best, context.settings().intakeSeconds(), "wrk-netty.txt",
                false));
        ChildProcesses.say("netty-http engine: " + rate + " accepted/s");
        wrk.soldOut(leg, "netty-sold-out", best, "wrk-netty-sold-out.txt");
        leg.awaitStreamEmpty();
        new SteadyLoads(context).service(leg, "h2, netty-http", rate / 2, "steady-load-h2-netty.txt");
        context.facts().note("rss_netty", ProcessReadings.peakRssMb(leg.service().pid()));
        leg.service().stop();
        return rate;
    }
}
