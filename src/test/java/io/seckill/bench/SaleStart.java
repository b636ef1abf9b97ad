package io.seckill.bench;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * A sale's start as a {@link StockPoll} saw it: the time from beginAt to sold out, and the units sold in the first
 * second after beginAt (where a start that stalls shows, against the rest of the sale).
 *
 * @param seconds          from beginAt to sold out, two decimals
 * @param firstSecondUnits units sold in the first second after beginAt
 * @param stolenPercent    the share of the CPUs' time stolen while the sale's flood ran ({@link Wrk.Result})
 */
record SaleStart(String seconds, long firstSecondUnits, String stolenPercent) {

    /**
     * From a poll's {@code MILLIS STOCK} lines of a sale of STOCK units beginning at BEGIN_MILLIS (Redis's clock) and
     * the flood that sold it; empty when it never sold out.
     */
    static Optional<SaleStart> of(List<String> lines, long beginMillis, long stock, Wrk.Result flood) {
        OptionalLong soldOut = StockPoll.soldOutMillis(lines);
        if (soldOut.isEmpty()) {
            return Optional.empty();
        }
        long left = stock;
        for (String line : lines) {
            String[] fields = line.strip().split(" ");
            if (fields.length == 2 && Long.parseLong(fields[0]) <= beginMillis + 1000) {
                left = Long.parseLong(fields[1]);
            }
        }
        return Optional.of(new SaleStart(Figures.decimals((soldOut.getAsLong() - beginMillis) / 1000.0, 2),
                stock - left, flood.stolenPercent()));
    }
}
