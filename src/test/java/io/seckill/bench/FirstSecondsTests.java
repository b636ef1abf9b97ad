package io.seckill.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * bench/first-seconds.sh's pure parts: wrk's lines read back, the stock poll's sold-out time, the script's rate, the
 * settings, and the summary in the layout the shell script printed (bench/runs/2026-11-25-8cc94bb-first-seconds.md).
 */
class FirstSecondsTests {

    private static final Path ROOT = Path.of("").toAbsolutePath();
    private static final MachineFacts MACHINE = new MachineFacts(2, "AMD EPYC",
            "openjdk version \"17.0.15\" 2025-04-15", "8.89 10.06 6.92");

    /** intake.lua's lines for RATE answers/s over 10 s, UNEXPECTED of them the wrong status, and a p99 in µs. */
    private static Wrk.Result wrk(long rate, long unexpected, long p99Micros) {
        return wrk(rate, unexpected, p99Micros, null);
    }

    /** The same, and Wrk's share of the CPUs' time stolen meanwhile (none: not measured). */
    private static Wrk.Result wrk(long rate, long unexpected, long p99Micros, String stolen) {
        Map<String, String> lines = new HashMap<>(Map.of("bench_requests", String.valueOf(rate * 10 + unexpected),
                "bench_unexpected", String.valueOf(unexpected), "bench_socket_errors", "0", "bench_duration_us",
                "10000000", "bench_p50_us", "900", "bench_p99_us", String.valueOf(p99Micros), "bench_p999_us",
                "90000"));
        if (stolen != null) {
            lines.put(Wrk.STOLEN, stolen);
        }
        return Wrk.Result.of(lines);
    }

    @Test
    void aWrkRunIsItsExpectedAnswersPerSecondAndItsP99InMilliseconds() {
        Wrk.Result result = wrk(2926, 40, 41_049);

        assertThat(result.rate()).isEqualTo("2926");
        assertThat(result.p99Millis()).isEqualTo("41.0");
        assertThat(Wrk.Result.of(Map.of()).rate()).isEqualTo("n/a");
        assertThat(Wrk.Result.of(Map.of()).p99Millis()).isEqualTo("n/a");
        assertThat(Wrk.Result.of(Map.of()).stolenPercent()).isEqualTo("n/a");
    }

    @Test
    void theSaleIsSoldOutAtTheFirstReadingWithNoStockLeft() {
        List<String> poll = List.of("1764064800000 20000", "1764064800005 20000", "1764064806290 0",
                "1764064806295 0");

        assertThat(StockPoll.soldOutMillis(poll)).hasValue(1764064806290L);
        assertThat(StockPoll.soldOutMillis(List.of("1764064800000 20000", "1764064800005 3"))).isEmpty();
    }

    @Test
    void aSalesStartIsItsTimeFromBeginAtToSoldOutAndTheUnitsSoldInItsFirstSecond() {
        List<String> poll = List.of("1764064799995 20000", "1764064800400 19000", "1764064801000 17500",
                "1764064801005 17400", "1764064803250 0");

        assertThat(SaleStart.of(poll, 1764064800000L, 20_000, wrk(5000, 0, 9_000, "4.2")))
                .contains(new SaleStart("3.25", 2500, "4.2"));
        assertThat(SaleStart.of(List.of("1764064800000 20000", "1764064800005 3"), 1764064800000L, 20_000,
                wrk(5000, 0, 9_000))).isEmpty();
    }

    @Test
    void theScriptsRateIsTheLastCsvLinesSecondField() {
        List<String> csv = List.of("\"test\",\"rps\",\"avg_latency_ms\"", "\"EVALSHA\",\"17490.38\",\"2.8\"");

        assertThat(RedisBenchmark.requestsPerSecond(csv)).isEqualTo("17490.38");
        assertThat(RedisBenchmark.requestsPerSecond(List.of())).isEqualTo("n/a");
    }

    @Test
    void theWindowsTheFloodAndTheSalesServicesCanBeCutFromTheEnvironment() throws Exception {
        FirstSeconds.Settings full = settings(name -> null);
        FirstSeconds.Settings quick = settings(Map.of("BENCH_WINDOWS", "2", "BENCH_WINDOW_SECONDS", "5",
                "BENCH_FLOOD_SECONDS", "5", "BENCH_SALE_SERVICES", "1")::get);

        assertThat(full).isEqualTo(new FirstSeconds.Settings(50, 12, 10, 20, 20_000, 10, 3, 200_000, 50));
        assertThat(quick.windows()).isEqualTo(2);
        assertThat(quick.windowSeconds()).isEqualTo(5);
        assertThat(quick.floodSeconds()).isEqualTo(5);
        assertThat(quick.saleServices()).isEqualTo(1);
        assertThatThrownBy(() -> settings(Map.of("BENCH_WINDOWS", "0")::get))
                .isInstanceOf(IllegalArgumentException.class);
    }

    private static FirstSeconds.Settings settings(Function<String, String> environment) throws IOException {
        return FirstSeconds.Settings.from(SettingsFile.read(ROOT, "first-seconds.sh", environment, false));
    }

    @Test
    void theSummaryPutsTheWindowsSideBySideAndEachFigureBesideItsReference() {
        FirstSeconds.Settings settings = new FirstSeconds.Settings(50, 3, 10, 20, 20_000, 10, 3, 200_000, 50);
        String summary = new FirstSecondsSummary("8cc94bb", MACHINE, settings, List.of(),
                List.of(wrk(2926, 0, 41_049, "0.0"), wrk(4098, 0, 26_800, "12.5"), wrk(5119, 0, 24_300, "3.1")),
                List.of(wrk(939, 0, 1_177_700, "20.0"), wrk(1972, 0, 52_100, "0.4"), wrk(4468, 0, 33_100, "1.0")),
                wrk(22032, 0, 9_000, "2.0"), wrk(17117, 0, 11_900, "0.0"),
                List.of(new SaleStart("6.29", 2150, "7.3"), new SaleStart("5.10", 3000, "1.0"),
                        new SaleStart("7.00", 1800, "0.5")),
                List.of(new SaleStart("2.47", 7400, "0.1"), new SaleStart("2.60", 7000, "0.0"),
                        new SaleStart("2.30", 7600, "0.2")), "17490").markdown();

        assertThat(summary).isEqualTo("""
                # First seconds of a sale: 8cc94bb

                2 CPUs (AMD EPYC), openjdk version "17.0.15" 2025-04-15, load before the run 8.89 10.06 6.92; \
                wrk -c 50, a new buyer per request; service arguments: (defaults)

                ## Cold start

                | 10 s window after readiness | 1 | 2 | 3 |
                | --- | ---: | ---: | ---: |
                | service, accepted/s | 2,926 | 4,098 | 5,119 |
                | service, POST p99 ms | 41.0 | 26.8 | 24.3 |
                | service, CPU stolen % | 0.0 | 12.5 | 3.1 |
                | reference, accepted/s | 939 | 1,972 | 4,468 |
                | reference, POST p99 ms | 1177.7 | 52.1 | 33.1 |
                | reference, CPU stolen % | 20.0 | 0.4 | 1.0 |

                Last window: the service at 114.6 % of the reference; first window at 57.2 % of the service's last, \
                63.5 % of the median of its windows 2–3 (4,608/s).

                ## Sold-out flood (20 s)

                | | answers/s | p99 | CPU stolen |
                | --- | ---: | ---: | ---: |
                | the service, SOLD_OUT | 22,032 | 9.0 ms | 2.0 % |
                | the engine's constant 409 (reference) | 17,117 | 11.9 ms | 0.0 % |

                Refusals at 128.7 % of the constant answer and 4.30× the service's accepted rate.

                ## A sale starting 10 s after readiness (20000 units), on 3 fresh services

                The script alone: 1.14 s (17,490/s, 50 clients). Each fresh service: the sale, then the same sale \
                again once the first was over; CPU stolen: the share of the CPUs' time stolen during the sale's flood.

                | fresh service | sold out after beginAt | × the script's time | units in its first second | \
                CPU stolen | again: sold out | × | units in its first second | CPU stolen |
                | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
                | 1 | 6.29 s | 5.5 | 2,150 | 7.3 % | 2.47 s | 2.2 | 7,400 | 0.1 % |
                | 2 | 5.10 s | 4.5 | 3,000 | 1.0 % | 2.60 s | 2.3 | 7,000 | 0.0 % |
                | 3 | 7.00 s | 6.1 | 1,800 | 0.5 % | 2.30 s | 2.0 | 7,600 | 0.2 % |

                Median: sold out 6.29 s after beginAt, 5.5× the script's time; the same sale again 2.47 s, 2.2×.
                """);
    }

    @Test
    void theServicesArgumentsAreNamedAndAMissingFigureReadsNa() {
        FirstSeconds.Settings settings = new FirstSeconds.Settings(50, 1, 5, 5, 20_000, 10, 2, 200_000, 50);
        String summary = new FirstSecondsSummary("8cc94bb+changes", MACHINE, settings,
                List.of("--seckill.api.engine=platform-http"), List.of(wrk(3000, 0, 20_000)),
                List.of(Wrk.Result.of(Map.of())), wrk(9000, 0, 9_000), wrk(9000, 0, 9_000),
                List.of(new SaleStart("3.00", 5000, "n/a"), new SaleStart("4.00", 4000, "n/a")),
                List.of(new SaleStart("2.00", 9000, "n/a"), new SaleStart("2.50", 8000, "n/a")), "n/a")
                .markdown();

        assertThat(summary)
                .contains("service arguments: --seckill.api.engine=platform-http\n")
                .contains("| 5 s window after readiness | 1 |\n")
                .contains("Last window: the service at n/a % of the reference;")
                .contains("The script alone: n/a s (n/a/s, 50 clients).")
                .contains("| 2 | 4.00 s | n/a | 4,000 | n/a % | 2.50 s | n/a | 8,000 | n/a % |\n")
                .contains("Median: sold out 3.50 s after beginAt, n/a× the script's time; the same sale again 2.25 s, "
                        + "n/a×.");
    }
}
