package io.seckill.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CpuStealTests {

    @Test
    void theStolenShareIsTheStealOfAllTheCpusTimeBetweenTwoReadings() {
        // user nice system idle iowait irq softirq steal guest guest_nice
        CpuSteal before = CpuSteal.parse("cpu  198478 0 33005 115215 4477 0 10075 75797 0 0");
        CpuSteal after = CpuSteal.parse("cpu  198578 0 33055 115245 4477 0 10075 75817 0 0");

        assertThat(after.total() - before.total()).isEqualTo(200);
        assertThat(after.percentSince(before)).isEqualTo("10.0");
    }

    @Test
    void withoutAReadingThereIsNoShare() {
        CpuSteal after = CpuSteal.parse("cpu  198578 0 33055 115245 4477 0 10075 75817 0 0");

        assertThat(after.percentSince(new CpuSteal(0, 0))).isEqualTo("n/a");
        assertThat(after.percentSince(after)).isEqualTo("n/a");
    }

    @Test
    void thisMachineHasAReading() {
        assertThat(CpuSteal.now().total()).isPositive();
    }
}
