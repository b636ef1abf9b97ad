package io.seckill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** bench/run.sh's pure parts: its settings, the readings from /proc, the stall reports, the backlog's orders. */
class BenchRunTests {

    private static final Path ROOT = Path.of("").toAbsolutePath();

    @Test
    void aQuickRunHasTheShortSettingsAndTheEnvironmentOverridesEither() throws Exception {
        BenchSettings full = BenchSettings.from(name -> null, false, ROOT);
        BenchSettings quick = BenchSettings.from(
                Map.of("BENCH_CONNECTIONS", "8 32", "BENCH_E2E_RATE", "1200", "BENCH_JAVA_OPTS", "")::get, true, ROOT);

        assertThat(full.warmUpSeconds()).isEqualTo(240);
        assertThat(full.connections()).containsExactly(16, 64, 256);
        assertThat(full.e2eRate()).isNull();
        assertThat(full.javaOptions()).containsExactly("@" + ROOT.resolve("jvm.options"));
        assertThat(full.batchSize()).isEqualTo(500);
        assertThat(full.longWarmUpSeconds()).isEqualTo(240 + 3 * 30);
        assertThat(quick.warmUpSeconds()).isEqualTo(10);
        assertThat(quick.drainOrders()).isEqualTo(50_000);
        assertThat(quick.connections()).containsExactly(8, 32);
        assertThat(quick.e2eRate()).isEqualTo(1200);
        assertThat(quick.javaOptions()).isEmpty();
    }

    @Test
    void aProcessesCpuIsReadPastItsNameWhichMayHoldSpaces() {
        // pid (comm) state ppid ... utime=250 stime=50 ticks, the 14th and 15th fields
        String stat = "4242 (C2 Compiler Thre) S 1 4242 4242 0 -1 4194560 100 0 0 0 250 50 0 0 20 0 30 0 1000";

        assertThat(ProcessReadings.cpuMicros(stat)).isEqualTo(3_000_000);
    }

    @Test
    void redisStallsCountOnlyTheMeasuredSeconds() {
        List<long[]> history = List.of(new long[] {99, 500}, new long[] {100, 12}, new long[] {105, 30});

        assertThat(StallReports.redisStall("aof-fsync-always", history, 100))
                .isEqualTo("aof-fsync-always 30 ms (in 2 s, 42 ms)");
        assertThat(StallReports.redisStall("command", history, 200)).isEmpty();
    }

    @Test
    void jvmStallsAreTheThreeLongestPausesOfTheMeasuredPart() {
        List<String> log = List.of(
                "[9.000s][info][safepoint] Safepoint \"G1CollectFull\", Time since last: 1 ns, Total: 900000000 ns",
                "[10.500s][info][safepoint] Safepoint \"G1CollectForAllocation\", Time since last: 1 ns,"
                        + " Total: 12400000 ns",
                "[11.000s][info][safepoint] Safepoint \"Cleanup\", Time since last: 1 ns, Total: 40000 ns",
                "[12.000s][info][safepoint] Safepoint \"G1PauseRemark\", Time since last: 1 ns, Total: 10000000 ns",
                "[13.000s][info][safepoint] Safepoint \"ICBufferFull\", Time since last: 1 ns, Total: 2600000 ns");

        assertThat(StallReports.jvmStalls(log, 10_000))
                .isEqualTo("G1CollectForAllocation 12 ms, G1PauseRemark 10 ms, ICBufferFull 3 ms (2 of 10 ms or more)");
        assertThat(StallReports.jvmStalls(log, 20_000)).isEqualTo(" (0 of 10 ms or more)");
    }

    @Test
    void theBacklogsOrdersHaveIdsAboveTheServicesOnTheServicesKeys() {
        assertThat(BacklogAdmission.orderId(1)).isEqualTo("8000000000000000001");
        assertThat(BacklogAdmission.orderId(500_000)).isEqualTo("8000000000000500000");
        assertThat(BacklogAdmission.keys(7)).containsExactly("seckill:{s0}:voucher:7", "seckill:{s0}:buyers:7",
                "seckill:{s0}:orders", "seckill:{s0}:orders:due", "seckill:{s0}:rate-limit:buyer:bench",
                "seckill:{s0}:rate-limit:address:bench");
    }
}
