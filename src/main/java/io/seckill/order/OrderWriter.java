package io.seckill.order;

import io.seckill.config.SqlStatements;
import io.seckill.order.OrderRejectedException.Reason;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.camel.component.redis.stream.StreamEntry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.core.BatchPreparedStatementSetter;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.namedparam.NamedParameterJdbcTemplate;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Writes accepted orders to the database, which guards the stock and the one live order per buyer in the same
 * transaction as the insert, whatever Redis said: {@code sql/take-units.sql} raises the voucher's {@code sold}
 * only within its stock, and the unique index on (voucher_id, live_buyer_id) refuses a buyer's second live order.
 *
 * <p>A batch is one transaction: read which of its orderIds are written already (one query), take the units of
 * the rest per voucher, insert them as one JDBC batch, commit. A batch of new entries, never delivered before,
 * skips the query: no writer has had them, so an orderId among them is in the database only after a replay from
 * the dead letters or a retried commit that had gone through, and the insert's primary key refuses it. Anything
 * that refuses the batch (a voucher without the units, a buyer's second order, an orderId written already) rolls
 * it back whole and fails it, and the route writes its entries one by one ({@link #writeOne}), where each gets its
 * own verdict and one written before is a success. A
 * plain JdbcTemplate batch with positional parameters, parsed once, costs no named-parameter parsing and no map
 * per row, which camel-sql spends on every row.
 *
 * <p>Vouchers are locked in ascending id order, so two writers whose batches share vouchers cannot deadlock; the
 * row lock makes writers on every instance take the last units one after the other.
 */
@Component("orderWriter")
public class OrderWriter {

    private static final Logger log = LoggerFactory.getLogger(OrderWriter.class);

    private final JdbcTemplate jdbc;
    private final NamedParameterJdbcTemplate named;
    private final TransactionTemplate transaction;
    private final OrderRows rows;
    private final OrderWriteMetrics metrics;
    private final SqlStatements.Positional insertOrder;
    private final SqlStatements.Positional takeUnits;
    private final String findWrittenOrders;
    private final String findVoucherStock;

    public OrderWriter(JdbcTemplate jdbc, TransactionTemplate transaction, OrderRows rows, OrderWriteMetrics metrics,
            SqlStatements sql) {
        this.jdbc = jdbc;
        this.named = new NamedParameterJdbcTemplate(jdbc);
        this.transaction = transaction;
        this.rows = rows;
        this.metrics = metrics;
        this.insertOrder = sql.positional("insert-order");
        this.takeUnits = sql.positional("take-units");
        this.findWrittenOrders = sql.get("find-written-orders");
        this.findVoucherStock = sql.get("find-voucher-stock");
    }

    /**
     * Writes a batch in one transaction. Fails whole, changing nothing, when any entry is malformed or refused.
     *
     * @param newEntries true when no entry of the batch was delivered before (the stream consumer's
     *     {@code CamelRedisStreamNewEntries} header); null or false: some may have been written already, which are left out
     * @return the orders it inserted (those written before are left out), for the order events
     */
    public List<OrderView> writeBatch(List<StreamEntry> entries, Boolean newEntries) {
        List<OrderRow> batch = rows.fromEntries(entries);
        long startedAt = metrics.start();
        List<OrderRow> inserted = transaction.execute(status -> {
            // A round trip and an index probe per row saved on the common path (PostgreSQL: about 1.3 µs a row).
            List<OrderRow> unwritten = Boolean.TRUE.equals(newEntries) ? batch : unwritten(batch);
            Map<Long, Integer> unitsPerVoucher = new TreeMap<>();
            unwritten.forEach(row -> unitsPerVoucher.merge(row.voucherId(), 1, Integer::sum));
            unitsPerVoucher.forEach((voucherId, units) -> {
                if (!take(voucherId, units)) {
                    throw new OrderRejectedException(Reason.OVERSOLD);
                }
            });
            insert(unwritten);
            return unwritten;
        });
        metrics.batchWritten(batch.size(), inserted, startedAt);
        return views(inserted);
    }

    /**
     * Writes one entry in a transaction of its own.
     *
     * @return the order it inserted, or nothing when the order was written before (by this or another instance)
     * @throws OrderRejectedException when the database refuses the order for good: a dead letter
     */
    public List<OrderView> writeOne(StreamEntry entry) {
        OrderRow row = rows.fromEntry(entry);
        long startedAt = metrics.start();
        List<OrderRow> inserted;
        try {
            inserted = transaction.execute(status -> {
                List<OrderRow> unwritten = unwritten(List.of(row));
                if (!unwritten.isEmpty()) {
                    if (!take(row.voucherId(), 1)) {
                        throw refused(row, whyNoUnit(row.voucherId()));
                    }
                    jdbc.update(insertOrder.sql(), statement -> bind(statement, row));
                }
                return unwritten;
            });
        } catch (DuplicateKeyException e) {
            // Rolled back. Either another instance wrote this orderId meanwhile (then it is written) or the buyer
            // has another live order for the voucher.
            if (unwritten(List.of(row)).isEmpty()) {
                inserted = List.of();
            } else {
                throw refused(row, Reason.DUPLICATE_BUYER);
            }
        }
        metrics.entryWritten(inserted, startedAt);
        return views(inserted);
    }

    /** The rows whose orderId is not in the database; one that is there for another voucher or buyer is refused. */
    private List<OrderRow> unwritten(List<OrderRow> batch) {
        List<Long> orderIds = new ArrayList<>(batch.size());
        batch.forEach(row -> orderIds.add(row.orderId()));
        Map<Long, OrderRow> written = new HashMap<>();
        named.query(findWrittenOrders, Map.of("orderIds", orderIds), rs -> {
            long orderId = rs.getLong("order_id");
            written.put(orderId, new OrderRow(orderId, rs.getLong("voucher_id"), rs.getLong("user_id"), 0, null));
        });
        if (written.isEmpty()) {
            return batch;
        }
        List<OrderRow> unwritten = new ArrayList<>(batch.size());
        for (OrderRow row : batch) {
            OrderRow there = written.get(row.orderId());
            if (there == null) {
                unwritten.add(row);
            } else if (there.voucherId() != row.voucherId() || there.userId() != row.userId()) {
                log.error("Order {} (voucher {}, buyer {}) refused: the database holds that orderId for voucher {}, "
                        + "buyer {}", row.orderId(), row.voucherId(), row.userId(), there.voucherId(), there.userId());
                throw new OrderRejectedException(Reason.ORDER_ID_CONFLICT);
            }
        }
        return unwritten;
    }

    private boolean take(long voucherId, int units) {
        return jdbc.update(takeUnits.sql(), statement -> {
            for (int i = 0; i < takeUnits.parameters().size(); i++) {
                String name = takeUnits.parameters().get(i);
                statement.setLong(i + 1, switch (name) {
                    case "units" -> units;
                    case "voucherId" -> voucherId;
                    default -> throw new IllegalStateException("sql/take-units.sql names an unknown :#" + name);
                });
            }
        }) == 1;
    }

    private Reason whyNoUnit(long voucherId) {
        List<String> stock = named.query(findVoucherStock, Map.of("voucherId", voucherId),
                (rs, row) -> rs.getInt("sold") + " of " + rs.getInt("stock"));
        if (stock.isEmpty()) {
            return Reason.UNKNOWN_VOUCHER;
        }
        log.debug("Voucher {}: {} units sold in the database", voucherId, stock.get(0));
        return Reason.OVERSOLD;
    }

    private void insert(List<OrderRow> batch) {
        if (batch.isEmpty()) {
            return;
        }
        jdbc.batchUpdate(insertOrder.sql(), new BatchPreparedStatementSetter() {
            @Override
            public void setValues(PreparedStatement statement, int i) throws SQLException {
                bind(statement, batch.get(i));
            }

            @Override
            public int getBatchSize() {
                return batch.size();
            }
        });
    }

    private void bind(PreparedStatement statement, OrderRow row) throws SQLException {
        List<String> parameters = insertOrder.parameters();
        for (int i = 0; i < parameters.size(); i++) {
            statement.setObject(i + 1, row.parameter(parameters.get(i)));
        }
    }

    private static OrderRejectedException refused(OrderRow row, Reason reason) {
        log.warn("Order {} (voucher {}, buyer {}) refused by the database: {}", row.orderId(), row.voucherId(),
                row.userId(), reason);
        return new OrderRejectedException(reason);
    }

    private static List<OrderView> views(List<OrderRow> inserted) {
        List<OrderView> views = new ArrayList<>(inserted.size());
        inserted.forEach(row -> views.add(row.written()));
        return views;
    }
}
