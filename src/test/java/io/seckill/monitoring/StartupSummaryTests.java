package io.seckill.monitoring;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StartupSummaryTests {

    @Test
    void jdbcUrlsLoseTheirPasswordsWhateverTheForm() {
        assertThat(StartupSummary.withoutPassword("jdbc:postgresql://db:5432/seckill?user=app&password=s3cret&ssl=true"))
                .isEqualTo("jdbc:postgresql://db:5432/seckill?user=app&password=****&ssl=true");
        assertThat(StartupSummary.withoutPassword("jdbc:h2:file:./data/db;USER=sa;PASSWORD=s3cret"))
                .isEqualTo("jdbc:h2:file:./data/db;USER=sa;PASSWORD=****");
        assertThat(StartupSummary.withoutPassword("jdbc:mysql://app:s3cret@db:3306/seckill"))
                .isEqualTo("jdbc:mysql://app:****@db:3306/seckill");
    }

    @Test
    void jdbcUrlsWithoutPasswordsAreShownAsTheyAre() {
        assertThat(StartupSummary.withoutPassword("jdbc:postgresql://127.0.0.1:5432/seckill?reWriteBatchedInserts=true"))
                .isEqualTo("jdbc:postgresql://127.0.0.1:5432/seckill?reWriteBatchedInserts=true");
        assertThat(StartupSummary.withoutPassword(null)).isEqualTo("(none)");
    }
}
