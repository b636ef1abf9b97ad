package io.seckill.api;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** How many I/O threads Netty's server and the Redis client share ({@code seckill.api.io-threads}). */
class SharedIoThreadsTests {

    @Test
    void byDefaultOnePerTwoCpusAndAtLeastOne() {
        assertThat(SharedIoThreads.count(0, 1)).isEqualTo(1);
        assertThat(SharedIoThreads.count(0, 2)).isEqualTo(1);
        assertThat(SharedIoThreads.count(0, 3)).isEqualTo(1);
        assertThat(SharedIoThreads.count(0, 16)).isEqualTo(8);
    }

    @Test
    void aSettingIsTakenAsItIs() {
        assertThat(SharedIoThreads.count(3, 2)).isEqualTo(3);
        assertThat(SharedIoThreads.count(1, 64)).isEqualTo(1);
    }
}
