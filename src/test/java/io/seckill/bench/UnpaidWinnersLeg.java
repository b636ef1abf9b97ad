package io.seckill.bench;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * Leg 4 of bench/run.sh, winners who do not pay: a short payment window; a flash crowd, one winner in two pays, the
 * others' units come back on sale; a second crowd buys them and does not pay. At the end only the paid orders are
 * live (Harness statuses checks the rows).
 */
final class UnpaidWinnersLeg {

    private final RunContext context;
    private final BenchSettings settings;

    UnpaidWinnersLeg(RunContext context) {
        this.context = context;
        this.settings = context.settings();
    }

    void measure() throws Exception {
        int window = settings.paymentWindowSeconds();
        ServiceLeg leg = ServiceLeg.start(context, "lifecycle", "service-lifecycle.log", ServiceLeg.TOMCAT,
                List.of("--seckill.order.payment-timeout=" + window + "s"), ServiceLeg.NO_RATE_LIMITS);
        long voucher = leg.newVoucher("lifecycle", settings.flashStock());
        ChildProcesses.say("unpaid winners: a flash crowd, one winner in 2 pays within the " + window + "s window");
        Path first = context.work().resolve("lifecycle-first.csv");
        crowd(leg, voucher, 7, first, "lifecycle-first-crowd.txt");
        context.steps().run(context.log("lifecycle-pay.txt"), null, "pay", leg.service().base(), first, 2);
        long winners = Long.parseLong(
                ResultLines.read(context.log("lifecycle-first-crowd.txt")).get("flash_accepted"));
        long paid = Long.parseLong(ResultLines.read(context.log("lifecycle-pay.txt")).get("pay_paid"));
        awaitRemaining(leg, voucher, winners - paid);
        long freed = leg.api().units(voucher).remaining();
        ChildProcesses.say("unpaid winners: " + paid + " paid, " + freed + " units back on sale; a second crowd");
        crowd(leg, voucher, 8, context.work().resolve("lifecycle-second.csv"), "lifecycle-second-crowd.txt");
        awaitRemaining(leg, voucher, settings.flashStock() - paid);
        leg.awaitStreamEmpty();
        long remaining = leg.api().units(voucher).remaining();
        long deadLetters = leg.deadLetters();
        leg.service().stop();
        context.steps().run(context.log("lifecycle-statuses.txt"), null, "statuses",
                "jdbc:h2:file:" + context.run().resolve("lifecycle/data/db/seckill"), "sa", voucher);
        context.facts().note("life_freed", freed);
        context.facts().note("life_remaining", remaining);
        context.facts().note("life_dead", deadLetters);
    }

    /** A flash crowd a fifth of leg 1's, its winners' orders into ACCEPTED. */
    private void crowd(ServiceLeg leg, long voucher, int seed, Path accepted, String results) throws Exception {
        context.steps().run(context.log(results), null, "flash", leg.service().base(), voucher,
                settings.flashRequests() / 5, settings.flashBuyers() / 5, settings.flashConcurrency(), seed, accepted);
    }

    /** Waits (the payment window and 3 minutes at most) until EXPECTED units are left; says so and goes on if not. */
    private void awaitRemaining(ServiceLeg leg, long voucher, long expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(settings.paymentWindowSeconds() + 180L).toNanos();
        long remaining;
        while ((remaining = leg.api().units(voucher).remaining()) != expected) {
            if (System.nanoTime() > deadline) {
                ChildProcesses.say("remaining of voucher " + voucher + " is " + remaining + ", not " + expected);
                return;
            }
            Thread.sleep(1000);
        }
    }
}
