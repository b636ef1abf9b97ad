package io.seckill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The summary's arithmetic: rates, ratios, thousands, and the target marks, missing figures included. */
class FiguresTests {

    @Test
    void aWrkRateCountsOnlyTheExpectedAnswersOverTheRunsDuration() {
        Map<String, String> wrk = Map.of("bench_requests", "150000", "bench_unexpected", "30",
                "bench_duration_us", "30000000");

        assertThat(Figures.wrkRate(wrk)).isEqualTo("4999");
        assertThat(Figures.wrkRate(Map.of())).isEqualTo("n/a");
    }

    @Test
    void ratiosArePerCentWithOneDecimalAndNaWithoutBothFigures() {
        assertThat(Figures.percent("7750", "10000")).isEqualTo("77.5");
        assertThat(Figures.percent("1", "3")).isEqualTo("33.3");
        assertThat(Figures.percent("n/a", "10000")).isEqualTo("n/a");
        assertThat(Figures.percent("5", "0")).isEqualTo("n/a");
        assertThat(Figures.percent("5", "")).isEqualTo("n/a");
    }

    @Test
    void aRatioHasTheDecimalsAskedAndNaWithoutBothFigures() {
        assertThat(Figures.ratio("22032", "5119", 2)).isEqualTo("4.30");
        assertThat(Figures.ratio("6.29", "1.14", 1)).isEqualTo("5.5");
        assertThat(Figures.ratio("20000", "n/a", 2)).isEqualTo("n/a");
        assertThat(Figures.ratio("1", "0", 2)).isEqualTo("n/a");
    }

    @Test
    void targetsAreMetOnlyByAFigure() {
        assertThat(Figures.atLeast("150.0", 150)).isEqualTo("yes");
        assertThat(Figures.atLeast("149.9", 150)).isEqualTo("no");
        assertThat(Figures.atLeast("n/a", 80)).isEqualTo("no");
        assertThat(Figures.below("19.99", 20)).isEqualTo("yes");
        assertThat(Figures.below("20.00", 20)).isEqualTo("no");
        assertThat(Figures.below("", 20)).isEqualTo("no");
    }

    @Test
    void thousandsAreGroupedInTheWholePartOnly() {
        assertThat(Figures.group("1234567")).isEqualTo("1,234,567");
        assertThat(Figures.group("999")).isEqualTo("999");
        assertThat(Figures.group("12345.6789")).isEqualTo("12,345.6789");
        assertThat(Figures.group("n/a")).isEqualTo("n/a");
    }

    @Test
    void wrkMicrosecondsPrintAsMilliseconds() {
        assertThat(Figures.millisFromMicros("14137")).isEqualTo("14.14");
        // As awk's printf read them: 2.855 is a hair under in binary.
        assertThat(Figures.millisFromMicros("2855")).isEqualTo("2.85");
        assertThat(Figures.millisFromMicros(null)).isEqualTo("n/a");
    }

    @Test
    void aMedianIsTheMiddleFigureOrTheMeanOfTheMiddleTwoAndNaWithAFigureMissing() {
        assertThat(Figures.median(List.of("6000", "5000", "7000"))).isEqualTo("6000");
        assertThat(Figures.median(List.of("6000", "5000", "7000", "9000"))).isEqualTo("6500");
        assertThat(Figures.median(List.of("4608"))).isEqualTo("4608");
        assertThat(Figures.median(List.of("6000", "n/a", "7000"))).isEqualTo("n/a");
        assertThat(Figures.median(List.of())).isEqualTo("n/a");
        assertThat(Figures.median(List.of("2.67", "2.19", "2.53"), 2)).isEqualTo("2.53");
        assertThat(Figures.median(List.of("3.00", "4.00"), 2)).isEqualTo("3.50");
    }
}
