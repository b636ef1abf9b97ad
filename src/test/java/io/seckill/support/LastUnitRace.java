package io.seckill.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.seckill.order.OrderRejectedException;
import io.seckill.order.OrderView;
import io.seckill.order.OrderWriter;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.apache.camel.component.redis.stream.StreamEntry;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * Two writers (two transactions through the service's own {@link OrderWriter}, as two instances would run them)
 * racing for a voucher's last unit in the database. A third transaction holds the voucher's row until both
 * writers wait for it, so they truly overlap; then it lets go.
 */
public final class LastUnitRace {

    private final OrderWriter writer;
    private final DataSource dataSource;
    private final String waitingTransactions;

    /** @param waitingTransactions SQL counting the transactions of this database now waiting for a lock */
    public LastUnitRace(OrderWriter writer, DataSource dataSource, String waitingTransactions) {
        this.writer = writer;
        this.dataSource = dataSource;
        this.waitingTransactions = waitingTransactions;
    }

    /** Runs the race on a voucher with one unit left in the database and checks its outcome. */
    public void runOn(long voucher) throws Exception {
        JdbcTemplate jdbc = new JdbcTemplate(dataSource);
        List<StreamEntry> entries = List.of(entry(voucher, 1L << 50, 101), entry(voucher, (1L << 50) + 1, 102));
        ExecutorService writers = Executors.newFixedThreadPool(2);
        List<Future<List<OrderView>>> outcomes = new ArrayList<>();
        try (Connection blocker = dataSource.getConnection()) {
            blocker.setAutoCommit(false);
            try (PreparedStatement lock = blocker.prepareStatement("UPDATE vouchers SET title = title WHERE id = ?")) {
                lock.setLong(1, voucher);
                lock.executeUpdate();
            }
            for (StreamEntry entry : entries) {
                outcomes.add(writers.submit(() -> writer.writeOne(entry)));
            }
            await().atMost(Duration.ofSeconds(30))
                    .until(() -> jdbc.queryForObject(waitingTransactions, Long.class) >= 2);
            blocker.commit();
        }
        int written = 0;
        List<OrderRejectedException.Reason> refused = new ArrayList<>();
        for (Future<List<OrderView>> outcome : outcomes) {
            try {
                written += outcome.get(30, TimeUnit.SECONDS).size();
            } catch (ExecutionException e) {
                assertThat(e.getCause()).isInstanceOf(OrderRejectedException.class);
                refused.add(((OrderRejectedException) e.getCause()).reason());
            }
        }
        writers.shutdown();
        assertThat(written).as("orders written").isEqualTo(1);
        assertThat(refused).containsExactly(OrderRejectedException.Reason.OVERSOLD);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM orders WHERE voucher_id = ?", Long.class, voucher))
                .isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT sold FROM vouchers WHERE id = ?", Long.class, voucher)).isEqualTo(1);
    }

    private static StreamEntry entry(long voucher, long orderId, long buyer) {
        return new StreamEntry(OrderStreams.ORDERS, orderId + "-0", Map.of("orderId", Long.toString(orderId),
                "voucherId", Long.toString(voucher), "userId", Long.toString(buyer),
                "acceptedAt", Long.toString(System.currentTimeMillis())));
    }
}
