package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.support.ApiClient;
import io.seckill.support.FullDisk;
import io.seckill.support.OrderStreams;
import io.seckill.support.SeckillIntegrationTest;
import io.seckill.support.Stores;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The embedded H2 file (the service's default database) on a disk that fills up while orders come in, then has room
 * again: H2 cannot write a commit and closes its file, the pool's next connections open it again. An outage, as a
 * full disk is on PostgreSQL (SQLSTATE class 53): the orders taken meanwhile wait in the stream and are written once
 * there is room, none of them a dead letter.
 */
@SeckillIntegrationTest
class H2FullDiskIntegrationTests {

    private static final Path FILE = Path.of("target", "h2-full-disk", UUID.randomUUID().toString(), "seckill")
            .toAbsolutePath();

    @Autowired
    ApiClient api;

    @Autowired
    Stores stores;

    @Value("${seckill.sweeper.min-idle-millis}")
    long minIdleMillis;

    @Value("${seckill.sweeper.max-deliveries}")
    int maxDeliveries;

    @DynamicPropertySource
    static void fileOnAFillingDisk(DynamicPropertyRegistry registry) {
        registry.add("spring.datasource.url", () -> FullDisk.h2Url(FILE.toString(), ";WRITE_DELAY=0"));
    }

    @AfterEach
    void freeTheDisk() {
        FullDisk.free();
    }

    @Test
    void ordersTakenWhileTheDiskIsFullAreWrittenOnceThereIsRoomNoneDeadLettered() {
        OrderStreams streams = new OrderStreams(stores.redis());
        long voucher = api.createVoucher(100);
        List<String> accepted = new java.util.ArrayList<>(api.orderAccepted(voucher, 1));
        await().atMost(Duration.ofSeconds(30)).until(() -> stores.orderRows(voucher) == 1 && streams.quiet());

        FullDisk.fill();
        // The intake needs only Redis: the orders are taken.
        accepted.addAll(api.orderAccepted(voucher, 2, 3, 4, 5, 6));
        // Longer than min-idle × max-deliveries: a sweeper counting each claim would dead-letter every order.
        Duration held = Duration.ofMillis(minIdleMillis * (maxDeliveries + 2));
        await().during(held).atMost(held.plusSeconds(10)).until(
                () -> streams.deadLetterCount() == 0 && streams.length() == 5);
        FullDisk.free();

        await().atMost(Duration.ofSeconds(60)).until(() -> streams.quiet() && stores.orderRows(voucher) == 6);
        assertThat(streams.deadLetterCount()).isZero();
        assertThat(stores.rowsPerOrderId(voucher)).isEqualTo(Stores.eachOnce(accepted));
        // And the service goes on writing.
        accepted.addAll(api.orderAccepted(voucher, 7));
        await().atMost(Duration.ofSeconds(30)).until(() -> stores.orderRows(voucher) == 7 && streams.quiet());
    }
}
