package io.seckill.bench;

import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * Leg 3 of bench/run.sh: PostgreSQL, in two databases of the run's own (the service's and the raw JDBC baseline's):
 * the long warm-up, a steady load at leg 1's rate, the drain, the database check and the baseline. Skipped with
 * BENCH_POSTGRES=0, or when psql or the server on 127.0.0.1:5432 is missing.
 */
final class PostgresLeg {

    private final RunContext context;
    private final BenchSettings settings;

    PostgresLeg(RunContext context) {
        this.context = context;
        this.settings = context.settings();
    }

    /** Makes its databases in DATABASES (dropped at the run's end); false when skipped. */
    boolean measure(PostgresDatabases databases, int e2eRate, int longWarmUp) throws Exception {
        RunFacts facts = context.facts();
        if (!settings.postgres() || !PostgresDatabases.available()) {
            ChildProcesses.say("PostgreSQL: skipped (BENCH_POSTGRES=0, or no psql / no server on 127.0.0.1:5432)");
            facts.note("pg_ran", 0);
            return false;
        }
        String database = "bench_"
                + ZonedDateTime.now(ZoneOffset.UTC).format(DateTimeFormatter.ofPattern("yyyyMMddHHmmss"));
        databases.create(database);
        databases.create(database + "_baseline");
        ServiceLeg leg = ServiceLeg.start(context, "pg", "service-pg.log", ServiceLeg.THROUGHPUT_WINDOW,
                ServiceLeg.TOMCAT, List.of("--spring.profiles.active=postgres",
                        "--spring.datasource.url=" + settings.pgUrl() + database), ServiceLeg.NO_RATE_LIMITS);
        ChildProcesses.say("PostgreSQL: warming up, " + longWarmUp + " s of wrk at 64 connections");
        new WrkIntake(context).intake(leg, "pg-warm-up", 64, longWarmUp, "wrk-pg-warm-up.txt", false);
        leg.awaitStreamEmpty();
        new SteadyLoads(context).service(leg, "pg", e2eRate, "steady-load-pg.txt");
        leg.awaitStreamEmpty();
        WriterDrain drain = new WriterDrain(context);
        long drainVoucher = drain.run(leg, "pg", true).voucher();
        long rss = ProcessReadings.peakRssMb(leg.service().pid());
        long deadLetters = leg.deadLetters();
        List<String> sold = leg.soldPerVoucher();
        leg.service().stop();
        context.steps().run(context.log("verify-pg.txt"), null, "verify", settings.pgUrl() + database, "postgres",
                "-", "-", sold);
        drain.baseline("pg", settings.pgUrl() + database + "_baseline?reWriteBatchedInserts=true", "postgres",
                "a fresh PostgreSQL database", drainVoucher);
        facts.note("pg_ran", 1);
        facts.note("rss_pg", rss);
        facts.note("pg_dead_letters", deadLetters);
        facts.note("pg_vouchers_checked", sold.size());
        return true;
    }
}
