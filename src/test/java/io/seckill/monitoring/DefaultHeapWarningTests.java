package io.seckill.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class DefaultHeapWarningTests {

    @Test
    void noHeapOptionIsTheDefaultHeap() {
        assertThat(DefaultHeapWarning.onDefaultHeap(List.of())).isTrue();
        assertThat(DefaultHeapWarning.onDefaultHeap(List.of("-XX:+UseG1GC", "-Xss512k", "-Xms64m",
                "-XX:MaxMetaspaceSize=160m"))).isTrue();
    }

    @Test
    void anyWayOfSettingTheMaximumIsNotTheDefault() {
        for (String option : List.of("-Xmx160m", "-XX:MaxHeapSize=200m", "-XX:MaxRAMPercentage=50",
                "-XX:MaxRAMFraction=4", "-XX:MaxRAM=1g")) {
            assertThat(DefaultHeapWarning.onDefaultHeap(List.of("-XX:+UseG1GC", option))).as(option).isFalse();
        }
    }
}
