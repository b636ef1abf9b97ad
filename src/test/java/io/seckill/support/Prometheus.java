package io.seckill.support;

import java.util.LinkedHashMap;
import java.util.List;
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

    /**
     * The sum of a metric's series that carry a label, for series with more labels than a test names (Camel's route
     * metrics: {@code camel_exchanges_succeeded_total{camelContext=…,routeId="place-order",…}}).
     */
    public double sum(String metric, String label) {
        List<Double> values = samples.entrySet().stream()
                .filter(sample -> sample.getKey().startsWith(metric + "{") && sample.getKey().contains(label))
                .map(Map.Entry::getValue).toList();
        if (values.isEmpty()) {
            throw new AssertionError("No series " + metric + " with " + label + " in the scrape; there are "
                    + samples.keySet().stream().filter(series -> series.startsWith(metric)).toList());
        }
        return values.stream().mapToDouble(Double::doubleValue).sum();
    }
}
