package io.seckill.bench;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** How many answers of each kind a load had ("202", "409_SOLD_OUT", "io_error", ...), counted from many threads. */
final class OutcomeCounts {

    private final Map<String, LongAdder> counts = new ConcurrentHashMap<>();

    void add(String outcome) {
        counts.computeIfAbsent(outcome, k -> new LongAdder()).increment();
    }

    long count(String outcome) {
        LongAdder count = counts.get(outcome);
        return count == null ? 0 : count.sum();
    }

    /** PREFIX_outcome_OUTCOME=COUNT lines, in the order of the outcomes' names. */
    void print(String prefix) {
        new TreeMap<>(counts).forEach((outcome, count) -> ResultLines.print(prefix + "_outcome_" + outcome, count.sum()));
    }
}
