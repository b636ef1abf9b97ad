package io.seckill.bench;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The summary's arithmetic and how it prints a figure: a figure that a leg did not produce (a skipped leg, a missing
 * key) is "n/a" wherever it is used, never 0, and a target it cannot meet reads "no".
 */
final class Figures {

    static final String NONE = "n/a";

    private Figures() {
    }

    /** A rate from a wrk result: answers of the expected status per second over the run's duration, "n/a" without one. */
    static String wrkRate(Map<String, String> wrk) {
        Double requests = number(wrk.get("bench_requests"));
        Double unexpected = number(wrk.get("bench_unexpected"));
        Double micros = number(wrk.get("bench_duration_us"));
        if (requests == null || unexpected == null || micros == null || micros <= 0) {
            return NONE;
        }
        return decimals((requests - unexpected) / (micros / 1e6), 0);
    }

    /** 100 × PART / WHOLE with one decimal, "n/a" when either is missing or WHOLE is not above 0. */
    static String percent(String part, String whole) {
        Double a = number(part);
        Double b = number(whole);
        return a == null || b == null || b <= 0 ? NONE : decimals(100 * a / b, 1);
    }

    /** PART / WHOLE with DIGITS decimals ("4.30" for "4.30×"), "n/a" when either is missing or WHOLE is not above 0. */
    static String ratio(String part, String whole, int digits) {
        Double a = number(part);
        Double b = number(whole);
        return a == null || b == null || b <= 0 ? NONE : decimals(a / b, digits);
    }

    /** "yes" when FIGURE is at least TARGET, "no" when not or when there is no figure. */
    static String atLeast(String figure, double target) {
        Double value = number(figure);
        return value != null && value >= target ? "yes" : "no";
    }

    /** "yes" when FIGURE is below LIMIT, "no" when not or when there is no figure. */
    static String below(String figure, double limit) {
        Double value = number(figure);
        return value != null && value < limit ? "yes" : "no";
    }

    /** Thousands separated by commas in a figure's whole part ("12,345", "1,234.5"); anything else as it is. */
    static String group(String figure) {
        if (figure == null || !figure.matches("\\d+(\\.\\d+)?")) {
            return figure == null ? "" : figure;
        }
        int point = figure.indexOf('.');
        String whole = point < 0 ? figure : figure.substring(0, point);
        StringBuilder grouped = new StringBuilder();
        for (int i = 0; i < whole.length(); i++) {
            if (i > 0 && (whole.length() - i) % 3 == 0) {
                grouped.append(',');
            }
            grouped.append(whole.charAt(i));
        }
        return grouped + (point < 0 ? "" : figure.substring(point));
    }

    /** Microseconds as milliseconds with two decimals, "n/a" without a figure. */
    static String millisFromMicros(String micros) {
        Double value = number(micros);
        return value == null ? NONE : decimals(value / 1000, 2);
    }

    /**
     * VALUE with DIGITS decimals, rounded as C's printf rounds (the double's exact binary value, ties to even), so a
     * figure reads as it did when the summary was assembled with awk: 2.855 is 2.85499… in binary, and reads 2.85.
     */
    static String decimals(double value, int digits) {
        return new BigDecimal(value).setScale(digits, RoundingMode.HALF_EVEN).toPlainString();
    }

    /**
     * The median of FIGURES with no decimals (the mean of the middle two of an even count), "n/a" when there are none
     * or one is missing: a rate that one run under a stall (an append-only-file rewrite of the embedded Redis, a
     * neighbour on the host) does not move.
     */
    static String median(List<String> figures) {
        return median(figures, 0);
    }

    /** The same with DIGITS decimals. */
    static String median(List<String> figures, int digits) {
        double[] values = new double[figures.size()];
        for (int i = 0; i < values.length; i++) {
            Double value = number(figures.get(i));
            if (value == null) {
                return NONE;
            }
            values[i] = value;
        }
        if (values.length == 0) {
            return NONE;
        }
        Arrays.sort(values);
        int middle = values.length / 2;
        return decimals(values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2, digits);
    }

    /** A figure as a number; null for a missing one, "n/a", or anything else that is not a plain decimal. */
    static Double number(String figure) {
        return figure != null && figure.matches("-?\\d+(\\.\\d+)?") ? Double.valueOf(figure) : null;
    }
}
