package io.seckill.support;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A scrape of {@code /actuator/prometheus}: each sample line as {@code series → value}, the series written as
 * Prometheus prints it, for example {@code seckill_admissions_total{outcome="accepted"}}.
 */
public record Prometheus(Map<String, Double> samples) {

    public static Prometheus parse(String text) {
        Map<String, Double> samples = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int space = line.lastIndexOf(' ');
            samples.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
        }
        return new Prometheus(samples);
    }

    /** The value of one series; fails when the scrape does not have it. */
    public double value(String series) {
        Double value = samples.get(series);
        if (value == null) {
            throw new AssertionError("No series " + series + " in the scrape");
        }
        return value;
    }
}
