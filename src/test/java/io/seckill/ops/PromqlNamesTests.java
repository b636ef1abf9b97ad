package io.seckill.ops;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class PromqlNamesTests {

    @Test
    void aSelectorIsItsNameWhateverItsMatchersAndRange() {
        assertThat(PromqlNames.of("up{job=\"seckill\"} == 0")).containsExactly("up");
        assertThat(PromqlNames.of("sum by (job) "
                + "(increase(seckill_dead_letters_added_total{reason=~\"OVERSOLD|DUPLICATE_BUYER\"}[5m])) > 0"))
                .containsExactly("seckill_dead_letters_added_total");
    }

    @Test
    void functionsKeywordsAndGroupingLabelsAreNoNames() {
        assertThat(PromqlNames.of("""
                sum by (job) (max by (job, shard) (seckill_stream_length)) > 0
                and
                sum by (job) (rate(seckill_orders_written_total[1m])) == 0"""))
                .containsExactly("seckill_stream_length", "seckill_orders_written_total");
        assertThat(PromqlNames.of(
                "histogram_quantile(0.99, sum by (job, le) (rate(seckill_orders_end_to_end_seconds_bucket[5m]))) > 5"))
                .containsExactly("seckill_orders_end_to_end_seconds_bucket");
        assertThat(PromqlNames.of("a / on (instance) group_left (version) b offset 5m unless c bool > Inf"))
                .containsExactly("a", "b", "c");
    }

    @Test
    void grafanaVariablesAreNoNames() {
        assertThat(PromqlNames.of(
                "sum by (outcome) (rate(seckill_admissions_total{instance=~\"$instance\"}[$__rate_interval]))"))
                .containsExactly("seckill_admissions_total");
        assertThat(PromqlNames.of("max($value) * ${factor}")).isEmpty();
    }
}
