package io.seckill.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The size of the warm-up's opening sales ({@link WarmUp#openingStock}): each must sell out at the rate the warm-up
 * reaches, so that the sold-out answers after a start are compiled as a buyer's sale will meet them.
 */
class WarmUpOpeningSaleTests {

    /** A quarter of the requests go to the opening voucher, whose sale is on for 700 ms of each second. */
    private static long requestsASaleMeets(long requestsPerSecond) {
        return requestsPerSecond / 4 * 700 / 1000;
    }

    @Test
    void aStarvedWarmUpStillSellsEachSaleOutHalfWay() {
        // 460 requests a second: a warm-up on a slow machine's two busy cores (a test run's); sales of 100 never sold
        // out.
        assertThat(WarmUp.openingStock(460)).isPositive().isLessThanOrEqualTo(requestsASaleMeets(460) / 2);
    }

    @Test
    void aFastWarmUpSellsSalesOfAHundred() {
        assertThat(WarmUp.openingStock(11_693)).isEqualTo(100);
    }

    @Test
    void aWarmUpThatAnsweredNothingYetStillOpensASaleOfOne() {
        assertThat(WarmUp.openingStock(0)).isEqualTo(1);
    }
}
