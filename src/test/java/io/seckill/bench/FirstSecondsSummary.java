package io.seckill.bench;

import java.util.List;

/**
 * The summary of bench/first-seconds.sh ({@link FirstSeconds}): the cold windows of the service and of the reference
 * side by side, the sold-out flood against the engine's constant 409, and the sale's start against the script's own
 * time. Pure: every figure comes in, the markdown goes out.
 *
 * @param commit          the commit measured ({@link MachineFacts#commit}, "+changes" after it for a changed tree)
 * @param machine         the machine, read before the run
 * @param settings        the run's windows, flood and sale
 * @param serviceArgs     the arguments the service was started with beyond the harness's own
 * @param serviceWindows  wrk's result in each cold window of the service, in order
 * @param referenceWindows the same for the reference controller
 * @param floodService    the service refusing a sold-out voucher
 * @param floodConstant   the reference answering a constant 409
 * @param starts          the sale starting on each fresh service, in order
 * @param agains          the same sale again on each of them, after the first
 * @param scriptRate      the admission script alone, requests/s (redis-benchmark), no decimals
 */
record FirstSecondsSummary(String commit, MachineFacts machine, FirstSeconds.Settings settings,
        List<String> serviceArgs, List<Wrk.Result> serviceWindows, List<Wrk.Result> referenceWindows,
        Wrk.Result floodService, Wrk.Result floodConstant, List<SaleStart> starts, List<SaleStart> agains,
        String scriptRate) {

    /** How long the script alone takes to sell the sale's stock, two decimals. */
    String scriptSeconds() {
        return Figures.ratio(String.valueOf(settings.saleStock()), scriptRate, 2);
    }

    String markdown() {
        String serviceRate = last(serviceWindows).rate();
        String referenceRate = last(referenceWindows).rate();
        StringBuilder out = new StringBuilder();
        out.append("# First seconds of a sale: ").append(commit).append("\n\n");
        out.append(machine.cpus()).append(" CPUs (").append(machine.cpuModel()).append("), ")
                .append(machine.javaVersion()).append(", load before the run ").append(machine.loadAverage())
                .append("; wrk -c ").append(settings.connections())
                .append(", a new buyer per request; service arguments: ")
                .append(serviceArgs.isEmpty() ? "(defaults)" : String.join(" ", serviceArgs)).append("\n\n");

        out.append("## Cold start\n\n");
        out.append("| ").append(settings.windowSeconds()).append(" s window after readiness |");
        StringBuilder rule = new StringBuilder("| --- |");
        for (int w = 1; w <= serviceWindows.size(); w++) {
            out.append(' ').append(w).append(" |");
            rule.append(" ---: |");
        }
        out.append('\n').append(rule).append('\n');
        rows(out, "service", serviceWindows);
        rows(out, "reference", referenceWindows);
        out.append('\n');
        int from = serviceWindows.size() / 2 + 1;
        String steady = median(serviceWindows.subList(from - 1, serviceWindows.size()));
        out.append("Last window: the service at ").append(Figures.percent(serviceRate, referenceRate))
                .append(" % of the reference; first window at ")
                .append(Figures.percent(serviceWindows.get(0).rate(), serviceRate))
                .append(" % of the service's last, ")
                .append(Figures.percent(serviceWindows.get(0).rate(), steady))
                .append(" % of the median of its windows ").append(from).append("–").append(serviceWindows.size())
                .append(" (").append(Figures.group(steady)).append("/s).\n\n");

        out.append("## Sold-out flood (").append(settings.floodSeconds()).append(" s)\n\n");
        out.append("| | answers/s | p99 | CPU stolen |\n| --- | ---: | ---: | ---: |\n");
        out.append("| the service, SOLD_OUT | ").append(Figures.group(floodService.rate())).append(" | ")
                .append(floodService.p99Millis()).append(" ms | ").append(floodService.stolenPercent())
                .append(" % |\n");
        out.append("| the engine's constant 409 (reference) | ").append(Figures.group(floodConstant.rate()))
                .append(" | ").append(floodConstant.p99Millis()).append(" ms | ")
                .append(floodConstant.stolenPercent()).append(" % |\n\n");
        out.append("Refusals at ").append(Figures.percent(floodService.rate(), floodConstant.rate()))
                .append(" % of the constant answer and ").append(Figures.ratio(floodService.rate(), serviceRate, 2))
                .append("× the service's accepted rate.\n\n");

        out.append("## A sale starting ").append(settings.saleDelaySeconds()).append(" s after readiness (")
                .append(settings.saleStock()).append(" units), on ").append(starts.size())
                .append(" fresh services\n\n");
        out.append("The script alone: ").append(scriptSeconds()).append(" s (").append(Figures.group(scriptRate))
                .append("/s, ").append(settings.scriptClients()).append(" clients). Each fresh service: the sale, ")
                .append("then the same sale again once the first was over; CPU stolen: the share of the CPUs' time ")
                .append("stolen during the sale's flood.\n\n");
        out.append("| fresh service | sold out after beginAt | × the script's time | units in its first second | ")
                .append("CPU stolen | again: sold out | × | units in its first second | CPU stolen |\n");
        out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
        for (int i = 0; i < starts.size(); i++) {
            out.append("| ").append(i + 1).append(" |");
            cells(out, starts.get(i));
            cells(out, agains.get(i));
            out.append('\n');
        }
        String start = medianSeconds(starts);
        String again = medianSeconds(agains);
        out.append("\nMedian: sold out ").append(start).append(" s after beginAt, ")
                .append(Figures.ratio(start, scriptSeconds(), 1)).append("× the script's time; the same sale again ")
                .append(again).append(" s, ").append(Figures.ratio(again, scriptSeconds(), 1)).append("×.\n");
        return out.toString();
    }

    private void cells(StringBuilder out, SaleStart sale) {
        out.append(' ').append(sale.seconds()).append(" s | ").append(Figures.ratio(sale.seconds(), scriptSeconds(), 1))
                .append(" | ").append(Figures.group(String.valueOf(sale.firstSecondUnits()))).append(" | ")
                .append(sale.stolenPercent()).append(" % |");
    }

    /** The median of these sales' times from beginAt to sold out, two decimals. */
    private static String medianSeconds(List<SaleStart> sales) {
        return Figures.median(sales.stream().map(SaleStart::seconds).toList(), 2);
    }

    private static void rows(StringBuilder out, String label, List<Wrk.Result> windows) {
        out.append("| ").append(label).append(", accepted/s |");
        windows.forEach(w -> out.append(' ').append(Figures.group(w.rate())).append(" |"));
        out.append("\n| ").append(label).append(", POST p99 ms |");
        windows.forEach(w -> out.append(' ').append(w.p99Millis()).append(" |"));
        out.append("\n| ").append(label).append(", CPU stolen % |");
        windows.forEach(w -> out.append(' ').append(w.stolenPercent()).append(" |"));
        out.append('\n');
    }

    /**
     * The median rate of these windows, no decimals ("n/a" if one is missing): a steady rate that one window under an
     * append-only-file rewrite of the embedded Redis (20-30 % lower, every minute or two from the fifth minute of
     * load) does not move.
     */
    private static String median(List<Wrk.Result> windows) {
        return Figures.median(windows.stream().map(Wrk.Result::rate).toList());
    }

    private static Wrk.Result last(List<Wrk.Result> windows) {
        return windows.get(windows.size() - 1);
    }
}
