package io.seckill.bench;

import java.util.List;

/**
 * wrk's intake on a leg's service ({@link Wrk}, a new buyer per request): orders on a voucher that never runs out,
 * refusals on one whose one unit is taken, and the best of the run's connection counts.
 */
final class WrkIntake {

    /** The best accepted rate of a series of wrk runs, and the connection count it came at. */
    record Best(int rate, int connections) {
    }

    /** One wrk run at CONNECTIONS. */
    interface Level {
        Wrk.Result run(int connections) throws Exception;
    }

    private final RunContext context;

    WrkIntake(RunContext context) {
        this.context = context;
    }

    /** LEVEL at each of COUNTS (BENCH_CONNECTIONS) in turn; the first of the highest rates wins. */
    static Best best(List<Integer> counts, Level level) throws Exception {
        Best best = new Best(0, 0);
        for (int connections : counts) {
            int rate = rate(level.run(connections));
            if (rate > best.rate()) {
                best = new Best(rate, connections);
            }
        }
        return best;
    }

    /** wrk on a new voucher that never runs out. */
    Wrk.Result intake(ServiceLeg leg, String title, int connections, int seconds, String results, boolean forwarded)
            throws Exception {
        Wrk.Result result = context.wrk().run(leg.service().base(), leg.newVoucher(title, ServiceLeg.MAX_STOCK),
                connections, seconds, 202, "orders", forwarded, context.log(results));
        leg.service().checkAlive();
        return result;
    }

    /** wrk on a voucher whose one unit is taken: every answer must be 409 SOLD_OUT. */
    Wrk.Result soldOut(ServiceLeg leg, String title, int connections, String results) throws Exception {
        long voucher = leg.newVoucher(title, 1);
        leg.api().order(voucher, 1);
        Wrk.Result result = context.wrk().run(leg.service().base(), voucher, connections,
                context.settings().intakeSeconds(), 409, "orders", false, context.log(results));
        leg.service().checkAlive();
        return result;
    }

    static int rate(Wrk.Result result) {
        Double rate = Figures.number(result.rate());
        return rate == null ? 0 : rate.intValue();
    }
}
