package io.seckill.bench;

import java.util.List;

/**
 * Leg 2 of bench/run.sh: H2 with the default rate limits on, a service of its own; wrk names each buyer's address
 * (X-Forwarded-For) as a proxy in front of the service would, so the per-address limit sees a crowd.
 */
final class RateLimitedLeg {

    private final RunContext context;

    RateLimitedLeg(RunContext context) {
        this.context = context;
    }

    /** At leg 1's BEST connection count, after a warm-up as long as leg 1's load (LONG_WARM_UP seconds). */
    void measure(int best, int longWarmUp) throws Exception {
        WrkIntake wrk = new WrkIntake(context);
        ServiceLeg leg = ServiceLeg.start(context, "limits", "service-rate-limits.log", ServiceLeg.THROUGHPUT_WINDOW,
                ServiceLeg.TOMCAT, List.of("--seckill.rate-limit.trusted-proxies=127.0.0.1"));
        ChildProcesses.say("rate limits on: warming up, " + longWarmUp + " s of wrk at " + best + " connections");
        wrk.intake(leg, "limits-warm-up", best, longWarmUp, "wrk-rate-limits-warm-up.txt", true);
        int seconds = context.settings().intakeSeconds();
        ChildProcesses.say("rate limits on: " + seconds + " s of wrk at " + best + " connections");
        leg.rewriteAppendOnlyFile();
        Wrk.Result limited = wrk.intake(leg, "limits", best, seconds, "wrk-rate-limits.txt", true);
        context.facts().note("rss_limited", ProcessReadings.peakRssMb(leg.service().pid()));
        ChildProcesses.say("rate limits on: " + limited.rate() + " accepted/s");
        leg.service().stop();
    }
}
