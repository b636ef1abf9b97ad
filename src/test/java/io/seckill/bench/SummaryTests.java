package io.seckill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The summary of a small fixed run: the ratios to the references, the target marks, the checks. */
class SummaryTests {

    @TempDir
    Path run;

    /** A quick run without PostgreSQL in which every check passes. */
    @BeforeEach
    void aRun() throws IOException {
        Files.createDirectories(run.resolve("logs"));
        log("run.txt", "date=2026-11-25 10:00", "quick=1", "connections=16 64", "best_connections=64",
                "fsync_default=always", "fsync_other=everysec", "e2e_rate=2500", "e2e_rate_netty=3000",
                "limit_clients=50", "limit_pipeline=16", "batch_size=500", "drain_orders=50000", "flash_stock=1000",
                "flash_remaining=0", "flash_buyers_in_redis=1000", "dead_letters=0", "vouchers_checked=9",
                "pg_ran=0", "cpus=2", "rss_intake=400", "rss_drain=430", "rss_limited=390", "rss_netty=380",
                "rss_reference=300", "life_freed=500", "life_remaining=500", "life_dead=0", "netty_rounds=3",
                "reference_connections=16", "netty_connections=16");
        wrk("wrk-16.txt", 120_000, 0);
        wrk("wrk-64.txt", 150_000, 0);
        wrk("wrk-reference-16.txt", 120_000, 0);
        wrk("wrk-reference-64.txt", 100_000, 0);
        wrk("wrk-sold-out.txt", 180_000, 0);
        wrk("wrk-fsync-everysec.txt", 160_000, 0);
        wrk("wrk-rate-limits.txt", 126_000, 0);
        wrk("wrk-netty-at-16.txt", 165_000, 0);
        wrk("wrk-netty-at-64.txt", 150_000, 0);
        // netty-http's rounds 6,000, 5,000 and 7,000/s, the controller's beside it 4,000, 3,000 and 4,500/s
        wrk("wrk-netty-1.txt", 180_000, 0);
        wrk("wrk-netty-2.txt", 150_000, 0);
        wrk("wrk-netty-3.txt", 210_000, 0);
        wrk("wrk-netty-reference-1.txt", 120_000, 0);
        wrk("wrk-netty-reference-2.txt", 90_000, 0);
        wrk("wrk-netty-reference-3.txt", 135_000, 0);
        wrk("wrk-netty-sold-out.txt", 200_000, 0);
        log("redis-benchmark-unpipelined.csv", "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\","
                + "\"p50_latency_ms\",\"p95_latency_ms\",\"p99_latency_ms\",\"max_latency_ms\"",
                "\"EVALSHA\",\"20000.40\",\"1.2\",\"0.1\",\"1.100\",\"2.0\",\"3.500\",\"9.0\"");
        log("steady-load-h2.txt", "load_rate_done=2500", "load_warm_up_seconds=12", "load_warm_up_steady=true",
                "post_p50=1.20", "post_p99=14.10", "post_p999=30.00", "e2e_count=250", "e2e_p50=20.00",
                "e2e_p99=60.00", "e2e_p999=70.00", "e2e_unseen=0", "redis_stalls=", "jvm_stalls=G1 12 ms (1 of 10 ms or more)");
        log("steady-script-always.txt", "script_rate_asked=2500", "script_rate_done=2500", "script_failures=0",
                "script_warm_up_seconds=7", "script_warm_up_steady=false", "script_p99=1.05");
        log("drain-h2.txt", "drain_orders=50000", "drain_seconds=2.00", "drain_rate=25000",
                "drain_rate_second_half=30000", "cpu_us_per_order_jvm=40.1", "cpu_us_per_order_redis=9.5");
        log("jdbc-baseline-h2.txt", "jdbc_rows=50000", "jdbc_seconds=1.00", "jdbc_rate=50000",
                "cpu_us_per_order_jvm=20.0");
        log("verify-h2.txt", "verify_flash_rows=1000", "verify_flash_buyers=1000", "verify_flash_missing=0",
                "verify_flash_unexpected=0", "verify_mismatches=0");
        log("flash-crowd.txt", "flash_accepted=1000", "flash_seconds=4.0", "flash_rate=5000",
                "flash_outcome_202=1000", "flash_outcome_409_ALREADY_ORDERED=4000", "flash_outcome_409_SOLD_OUT=15000");
        log("lifecycle-first-crowd.txt", "flash_accepted=1000");
        log("lifecycle-pay.txt", "pay_paid=500");
        log("lifecycle-second-crowd.txt", "flash_accepted=500");
        log("lifecycle-statuses.txt", "status_CREATED=0", "status_PAID=500", "status_CANCELLED=1000",
                "live_buyers=500", "sold=500");
    }

    @Test
    void theHeadlinePutsEachFigureBesideItsReferenceAndTarget() {
        String summary = new Summary(new RunFiles(run)).markdown();

        assertThat(summary)
                .contains("**Quick run: shortened settings to check the harness; these figures are not comparable.**")
                .contains("| intake, accepted orders/s (best: 64 connections; rate limits off) | 5,000 | 4,000"
                        + " (plain Spring MVC controller, same script and Redis, best: 16 connections) | 125.0 % |"
                        + " ≥ 150 % | no |")
                .contains("| intake, accepted orders/s | 5,000 | 20,000 (admission script alone, 50 clients, no"
                        + " pipelining) | 25.0 % | ≥ 25 % | yes |")
                .contains("| 4,200 | 5,000 (limits off) | 84.0 % | ≥ 80 % | yes |")
                .contains("| POST latency p99 at half load (2,500/s, H2) | 14.10 ms | 1.05 ms (the admission script"
                        + " alone at that rate, straight to Redis) | | < 20 ms | yes |")
                .contains("| 25,000 | 50,000 (raw JDBC batches of 500, one commit each, H2 file) | 50.0 % | ≥ 80 % |"
                        + " no |")
                .contains("| 202 → row p99 at half load, H2 / PostgreSQL | 60.00 / n/a ms | | | < 100 ms | yes / no |")
                .contains("| 400 / 430 / 390 / 380 / n/a MB | 300 MB (reference) | | < 384 MB | no |")
                .contains("| correctness: flash crowd, every order written once (checks below) | 0 failed | | | none |"
                        + " yes |");
    }

    @Test
    void nettyHttpIsTheMedianOfItsRoundsAgainstTheMedianOfTheControllersBesideIt() {
        String summary = new Summary(new RunFiles(run)).markdown();

        assertThat(summary)
                .contains("| intake on the netty-http engine (seckill.api.engine=netty-http; best: 16 connections,"
                        + " limits off; median of 3 rounds) | 6,000 | 4,000 (plain Spring MVC controller on its Redis,"
                        + " measured in turn with it, 16 connections; median) | 150.0 % | ≥ 150 % | yes |")
                .contains("| intake on the netty-http engine | 6,000 | 20,000 (admission script alone) | 30.0 % |")
                .contains("| netty-http engine, 16 | 5,500 |")
                .contains("| netty-http engine, round 2, 16 | 5,000 |")
                .contains("| beside the netty-http engine, round 3, 16 | 4,500 |");
    }

    @Test
    void anUnexpectedAnswerInAnyNettyRoundFailsItsCheck() throws IOException {
        wrk("wrk-netty-2.txt", 150_000, 7);

        Summary summary = new Summary(new RunFiles(run));
        String text = summary.markdown();

        assertThat(summary.failures()).isEqualTo(1);
        assertThat(text).contains("| netty-http engine: every intake answer 202, every sold-out answer 409 (other"
                + " answers: 0, 7, 0, 0, 0, 0) | FAIL |");
    }

    @Test
    void aLegThatDidNotRunReadsNaNotZero() {
        String summary = new Summary(new RunFiles(run)).markdown();

        assertThat(summary)
                .contains("| drain into PostgreSQL, orders written/s | n/a | n/a (raw JDBC batches of 500, one commit"
                        + " each) | n/a % | ≥ 80 % | no |")
                .contains("- Software: ; embedded redis-server ; PostgreSQL not run;")
                .doesNotContain("| PostgreSQL | 2,500 |");
    }

    @Test
    void theTablesOfEachLeg() {
        String summary = new Summary(new RunFiles(run)).markdown();

        assertThat(summary)
                .contains("| 64 | 5,000 | 1.00 ms | 10.00 ms | 20.00 ms | 0 | 0 | 3.5 % |")
                .contains("| H2 | 2,500 | 2,500 | 12 s | 1.20 ms | 14.10 ms | 30.00 ms | 250 | 20.00 ms | 60.00 ms |"
                        + " 70.00 ms |")
                .contains("| the admission script alone, straight to Redis, appendfsync always (0 failed) | 2,500 |"
                        + " 2,500 | 7 s, not steady |")
                .contains("- H2: none\n")
                .contains("- H2: G1 12 ms (1 of 10 ms or more)\n")
                .contains("| the service's order-writer, H2 (second half alone: 30,000/s) | 50,000 | 2.00 | 25,000 |"
                        + " 40.1 µs | 9.5 µs |  |")
                .contains("Flash crowd: 202=1000 409_ALREADY_ORDERED=4000 409_SOLD_OUT=15000 in 4.0 s (5,000"
                        + " requests/s).");
    }

    @Test
    void everyCheckPassesOnAConsistentRun() {
        Summary summary = new Summary(new RunFiles(run));
        String text = summary.markdown();

        assertThat(summary.failures()).isZero();
        assertThat(text).doesNotContain("| FAIL |")
                .contains("| unpaid winners: the 500 unpaid units came back (500) and the second crowd bought exactly"
                        + " them (500) | PASS |");
    }

    @Test
    void anOrderLostOrDoubledFailsTheRun() throws IOException {
        log("flash-crowd.txt", "flash_accepted=1001", "flash_outcome_202=1001", "flash_outcome_500=3");
        log("verify-h2.txt", "verify_flash_rows=999", "verify_flash_buyers=999", "verify_flash_missing=2",
                "verify_flash_unexpected=0", "verify_mismatches=1");

        Summary summary = new Summary(new RunFiles(run));
        String text = summary.markdown();

        assertThat(summary.failures()).isEqualTo(5);
        assertThat(text)
                .contains("| flash crowd: 1001 orders accepted (202) for a stock of 1000 | FAIL |")
                .contains("| flash crowd: every other answer 409 SOLD_OUT or ALREADY_ORDERED (also: 500=3) | FAIL |")
                .contains("| flash crowd: rows missing 2, rows never accepted 0 | FAIL |")
                .contains("| 5 failed | | | none | no |");
    }

    @Test
    void linksThePicturesBesideIt() throws IOException {
        Files.writeString(run.resolve("steady-load-h2.svg"), "<svg/>");

        assertThat(new Summary(new RunFiles(run)).markdown())
                .contains("Each load second by second, warm-up shaded (its answers per second against the rate asked,"
                        + " and their p99): [H2](steady-load-h2.svg).");
    }

    /** A wrk result: REQUESTS over 30 s, p50 1 ms, p99 10 ms, p99.9 20 ms, 3.5 % of the CPUs' time stolen. */
    private void wrk(String name, long requests, long unexpected) throws IOException {
        log(name, "bench_requests=" + requests, "bench_unexpected=" + unexpected, "bench_socket_errors=0",
                "bench_duration_us=30000000", "bench_p50_us=1000", "bench_p99_us=10000", "bench_p999_us=20000",
                "bench_cpu_stolen_pct=3.5");
    }

    private void log(String name, String... lines) throws IOException {
        Files.write(run.resolve("logs").resolve(name), java.util.List.of(lines));
    }
}
