package io.seckill.bench;

import java.io.IOException;
import java.util.List;

/**
 * Leg 1 of bench/run.sh, H2 with the rate limits off (bench/README.md, steps 2 to 11): the intake at each connection
 * count, the sold-out path, the other fsync policy, the references, the steady loads, the flash crowd, the drain, the
 * database check and the raw JDBC baseline.
 */
final class H2Leg {

    /** What leg 1 found that the later legs and the summary need. */
    record Result(String redisVersion, int bestConnections, int referenceConnections, int e2eRate,
            String fsyncDefault, String fsyncOther) {
    }

    private static final String FLASH_ACCEPTED = "flash-accepted.csv";

    private final RunContext context;
    private final BenchSettings settings;
    private final WrkIntake wrk;

    H2Leg(RunContext context) {
        this.context = context;
        this.settings = context.settings();
        this.wrk = new WrkIntake(context);
    }

    Result measure() throws Exception {
        ServiceLeg leg = ServiceLeg.start(context, "h2", "service-h2.log", ServiceLeg.THROUGHPUT_WINDOW,
                ServiceLeg.TOMCAT, ServiceLeg.NO_RATE_LIMITS);
        String redisVersion = leg.redisInfo("redis_version");
        WrkIntake.Best best = intake(leg);
        ChildProcesses.say("sold out: " + settings.intakeSeconds() + " s of wrk at " + best.connections()
                + " connections on a voucher with no unit left");
        ChildProcesses.say("sold out: " + wrk.soldOut(leg, "sold-out", best.connections(), "wrk-sold-out.txt").rate()
                + " refusals/s");
        String fsyncDefault = leg.appendfsync();
        String fsyncOther = fsyncDefault.equals("always") ? "everysec" : "always";
        long rssIntake = otherFsync(leg, best.connections(), fsyncDefault, fsyncOther);

        IntakeReferences references = new IntakeReferences(context);
        IntakeReferences.Controller controller = references.controller(leg);
        leg.service().checkAlive();
        ChildProcesses.say("waiting for the writer to catch up");
        leg.awaitStreamEmpty();
        references.script(leg);

        int e2eRate = settings.e2eRate() != null ? settings.e2eRate() : best.rate() / 2;
        if (e2eRate <= 0) {
            throw new IOException("no intake rate measured to halve");
        }
        steadyLoads(leg, e2eRate, fsyncDefault, fsyncOther);
        long flashVoucher = flashCrowd(leg);

        WriterDrain drain = new WriterDrain(context);
        WriterDrain.Result drained = drain.run(leg, "h2", false);
        long rssDrain = ProcessReadings.peakRssMb(leg.service().pid());
        long rssRedis = ProcessReadings.peakRssMb(leg.service().redisPid());
        long deadLetters = leg.deadLetters();
        List<String> sold = leg.soldPerVoucher();
        ChildProcesses.say("stopping the service");
        leg.service().stop();
        context.steps().run(context.log("verify-h2.txt"), null, "verify",
                "jdbc:h2:file:" + context.run().resolve("h2/data/db/seckill"), "sa", flashVoucher,
                context.work().resolve(FLASH_ACCEPTED), sold);
        drain.baseline("h2", "jdbc:h2:file:" + context.work().resolve("baseline/seckill") + ";WRITE_DELAY=0", "sa",
                "a fresh H2 file", drained.voucher());

        RunFacts facts = context.facts();
        facts.note("dead_letters", deadLetters);
        facts.note("vouchers_checked", sold.size());
        facts.note("rss_intake", rssIntake);
        facts.note("rss_drain", rssDrain);
        facts.note("rss_drain_from", drained.rssFrom());
        facts.note("rss_reference", controller.rssMb());
        facts.note("rss_redis", rssRedis);
        return new Result(redisVersion, best.connections(), controller.bestConnections(), e2eRate, fsyncDefault,
                fsyncOther);
    }

    /** The warm-up, then wrk at each connection count: the best. */
    private WrkIntake.Best intake(ServiceLeg leg) throws Exception {
        ChildProcesses.say("warming up: " + settings.warmUpSeconds() + " s of wrk at 64 connections");
        wrk.intake(leg, "warm-up", 64, settings.warmUpSeconds(), "wrk-warm-up.txt", false);
        WrkIntake.Best best = WrkIntake.best(settings.connections(), connections -> {
            ChildProcesses.say("intake: " + settings.intakeSeconds() + " s of wrk at " + connections + " connections");
            leg.rewriteAppendOnlyFile();
            return wrk.intake(leg, "intake " + connections, connections, settings.intakeSeconds(),
                    "wrk-" + connections + ".txt", false);
        });
        ChildProcesses.say("intake: best " + best.rate() + " accepted/s at " + best.connections() + " connections");
        return best;
    }

    /** The intake at BEST connections with appendfsync OTHER, then DEFAULT again; the service's peak RSS so far. */
    private long otherFsync(ServiceLeg leg, int best, String fsyncDefault, String other) throws Exception {
        ChildProcesses.say("fsync: " + settings.intakeSeconds() + " s of wrk at " + best
                + " connections with appendfsync " + other + " (default " + fsyncDefault + ")");
        leg.appendfsync(other);
        leg.rewriteAppendOnlyFile();
        Wrk.Result fsync = wrk.intake(leg, "fsync " + other, best, settings.intakeSeconds(),
                "wrk-fsync-" + other + ".txt", false);
        leg.appendfsync(fsyncDefault);
        leg.service().checkAlive();
        long rssIntake = ProcessReadings.peakRssMb(leg.service().pid());
        ChildProcesses.say("fsync: " + fsync.rate() + " accepted/s with " + other
                + "; service peak RSS through the intake " + rssIntake + " MB");
        return rssIntake;
    }

    /**
     * The service's steady load at RATE with each fsync policy: what of the POST latency is the disk's. Then the script
     * alone at the same rate with each policy: the latency Redis and this disk give without the service, the floor
     * under it.
     */
    private void steadyLoads(ServiceLeg leg, int rate, String fsyncDefault, String fsyncOther) throws Exception {
        SteadyLoads loads = new SteadyLoads(context);
        loads.service(leg, "h2", rate, "steady-load-h2.txt");
        leg.appendfsync(fsyncOther);
        loads.service(leg, "h2, appendfsync " + fsyncOther, rate, "steady-load-h2-" + fsyncOther + ".txt");
        loads.script(leg, fsyncOther, rate);
        leg.appendfsync(fsyncDefault);
        loads.script(leg, fsyncDefault, rate);
    }

    /** BENCH_FLASH_REQUESTS orders from BENCH_FLASH_BUYERS buyers for BENCH_FLASH_STOCK units; returns the voucher. */
    private long flashCrowd(ServiceLeg leg) throws Exception {
        long voucher = leg.newVoucher("flash", settings.flashStock());
        ChildProcesses.say("flash crowd: " + settings.flashRequests() + " orders from " + settings.flashBuyers()
                + " buyers for a stock of " + settings.flashStock());
        context.steps().run(context.log("flash-crowd.txt"), null, "flash", leg.service().base(), voucher,
                settings.flashRequests(), settings.flashBuyers(), settings.flashConcurrency(), 42,
                context.work().resolve(FLASH_ACCEPTED));
        leg.service().checkAlive();
        leg.awaitStreamEmpty();
        context.facts().note("flash_remaining", leg.api().units(voucher).remaining());
        context.facts().note("flash_buyers_in_redis", leg.redisInteger("SCARD", "seckill:{s0}:buyers:" + voucher));
        return voucher;
    }
}
