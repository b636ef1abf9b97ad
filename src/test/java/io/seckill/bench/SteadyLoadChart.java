package io.seckill.bench;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;

/**
 * A picture of one steady load, second by second from its start: the answers that counted per second (the
 * service's 202s; the script's answers) against the rate asked, and their p99, with the unmeasured warm-up shaded.
 * The load's p99 is one figure for a minute; the picture shows whether it was one stall or many, and when. Plain
 * SVG written here, so the build needs no plotting library and a browser or the Markdown viewer shows it.
 *
 * <pre>chart RESULTS SVG TITLE</pre>
 */
final class SteadyLoadChart {

    private static final int WIDTH = 960;
    private static final int LEFT = 80;
    private static final int RIGHT = 30;
    private static final int PANEL_HEIGHT = 160;
    private static final int RATE_TOP = 60;
    private static final int P99_TOP = RATE_TOP + PANEL_HEIGHT + 70;
    private static final int HEIGHT = P99_TOP + PANEL_HEIGHT + 50;

    /** One load's seconds, from its results: COUNTS[s] answers and P99_MILLIS[s] (-1: none) in second s. */
    record Load(String title, String counted, long asked, int warmUpSeconds, long[] counts, double[] p99Millis) {

        /**
         * The service's load ({@code load_*}, its 202s as {@code post_*}) or the script's ({@code script_*}), from
         * the lines {@link SteadyLoad} and {@link ScriptLoad} print.
         */
        static Load of(String title, Map<String, String> results) {
            boolean service = results.containsKey("post_count_by_second");
            String load = service ? "load" : "script";
            String latency = service ? "post" : "script";
            return new Load(title, service ? "accepted (202) per second" : "answers per second",
                    Long.parseLong(results.get(load + "_rate_asked")),
                    Integer.parseInt(results.get(load + "_warm_up_seconds")),
                    Arrays.stream(words(results, latency + "_count_by_second")).mapToLong(Long::parseLong).toArray(),
                    Arrays.stream(words(results, latency + "_p99_ms_by_second")).mapToDouble(Double::parseDouble)
                            .toArray());
        }

        private static String[] words(Map<String, String> results, String key) {
            String line = results.get(key);
            if (line == null) {
                throw new IllegalArgumentException("no " + key + " in the load's results");
            }
            return line.isBlank() ? new String[0] : line.trim().split(" ");
        }

        int seconds() {
            return counts.length;
        }
    }

    private SteadyLoadChart() {
    }

    static void run(String[] args) throws Exception {
        Load load = Load.of(args[2], ResultLines.read(Path.of(args[0])));
        Files.writeString(Path.of(args[1]), svg(load));
    }

    static String svg(Load load) {
        long highestCount = Arrays.stream(load.counts()).max().orElse(0);
        double rateTop = niceCeiling(Math.max(load.asked(), highestCount));
        // The measured seconds set the p99 axis: the warm-up's first seconds, often ten times slower, would flatten
        // the minute the figures come from; they are drawn clipped at the top.
        double p99Top = niceCeiling(Arrays.stream(load.p99Millis()).skip(load.warmUpSeconds()).max().orElse(0));
        double[] rates = Arrays.stream(load.counts()).asDoubleStream().toArray();

        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n", WIDTH, HEIGHT, WIDTH,
                HEIGHT));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", WIDTH, HEIGHT));
        svg.append(text(LEFT, 25, "start", 16, escape(load.title())));
        panel(svg, load, RATE_TOP, load.counted() + " (asked: " + load.asked() + "/s, dashed)", rateTop);
        panel(svg, load, P99_TOP, "p99 of each second (ms; the warm-up's clipped at the top)", p99Top);
        double askedY = y(load.asked(), rateTop, RATE_TOP);
        svg.append(String.format(Locale.ROOT, "<line class=\"asked\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\""
                + " stroke=\"#888\" stroke-dasharray=\"6 4\"/>%n", LEFT, askedY, WIDTH - RIGHT, askedY));
        svg.append(line("rate", rates, rateTop, RATE_TOP, load.seconds(), "#1f77b4"));
        svg.append(line("p99", load.p99Millis(), p99Top, P99_TOP, load.seconds(), "#d62728"));
        svg.append(text(LEFT + (WIDTH - LEFT - RIGHT) / 2, HEIGHT - 12, "middle", 12,
                "seconds from the load's start (shaded: the warm-up, unmeasured)"));
        return svg.append("</svg>\n").toString();
    }

    /** A panel's frame, warm-up shading, label, and ticks on both axes. */
    private static void panel(StringBuilder svg, Load load, int top, String label, double yTop) {
        int bottom = top + PANEL_HEIGHT;
        double warmUpEnd = x(load.warmUpSeconds(), load.seconds());
        svg.append(String.format(Locale.ROOT, "<rect class=\"warm-up\" x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\""
                + " fill=\"#eeeeee\"/>%n", LEFT, top, warmUpEnd - LEFT, PANEL_HEIGHT));
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\""
                + " stroke=\"#444\"/>%n", LEFT, top, WIDTH - LEFT - RIGHT, PANEL_HEIGHT));
        svg.append(text(LEFT, top - 10, "start", 13, escape(label)));
        for (double fraction : new double[] {0, 0.5, 1}) {
            double y = bottom - fraction * PANEL_HEIGHT;
            svg.append(text(LEFT - 8, y + 4, "end", 12, "<tspan class=\"y-tick\">" + number(fraction * yTop)
                    + "</tspan>"));
        }
        int step = tickStep(load.seconds());
        for (int second = 0; second <= load.seconds(); second += step) {
            svg.append(text(x(second, load.seconds()), bottom + 16, "middle", 12, Integer.toString(second)));
        }
    }

    /** One value per second as a path through the seconds' middles, broken where a value is negative (none). */
    private static String line(String name, double[] values, double yTop, int top, int seconds, String colour) {
        StringBuilder path = new StringBuilder();
        boolean broken = true;
        for (int second = 0; second < values.length; second++) {
            if (values[second] < 0) {
                broken = true;
                continue;
            }
            path.append(String.format(Locale.ROOT, "%s%.1f %.1f ", broken ? "M" : "L",
                    x(second + 0.5, seconds), y(values[second], yTop, top)));
            broken = false;
        }
        return String.format(Locale.ROOT, "<path class=\"%s\" d=\"%s\" fill=\"none\" stroke=\"%s\""
                + " stroke-width=\"1.5\"/>%n", name, path.toString().trim(), colour);
    }

    private static double x(double second, int seconds) {
        return LEFT + second * (WIDTH - LEFT - RIGHT) / Math.max(1, seconds);
    }

    private static double y(double value, double yTop, int top) {
        return top + PANEL_HEIGHT - Math.min(value, yTop) / yTop * PANEL_HEIGHT;
    }

    /** The smallest 1, 2 or 5 times a power of ten at or above VALUE (1 for nothing): the axis's top. */
    static double niceCeiling(double value) {
        if (value <= 0) {
            return 1;
        }
        double power = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 5, 10}) {
            if (step * power >= value) {
                return step * power;
            }
        }
        return 10 * power;
    }

    /** Seconds between ticks: about ten ticks along the axis, on round numbers. */
    private static int tickStep(int seconds) {
        return (int) Math.max(1, niceCeiling(seconds / 10.0));
    }

    private static String number(double value) {
        return value == Math.rint(value) ? String.format(Locale.ROOT, "%.0f", value)
                : String.format(Locale.ROOT, "%.2f", value);
    }

    private static String text(double x, double y, String anchor, int size, String content) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>%n",
                x, y, anchor, size, content);
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
