package io.seckill.voucher;

import io.seckill.config.SqlStatements;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.jdbc.support.KeyHolder;
import org.springframework.stereotype.Repository;

/** Vouchers in the database, with the statements of {@code sql/}. */
@Repository
public class VoucherRepository {

    private final JdbcClient jdbc;
    private final Clock clock;
    private final String insertVoucher;
    private final String findVoucher;
    private final String selectVouchersOnSale;
    private final String selectVoucherOrders;
    private final String selectVoucherSold;

    public VoucherRepository(JdbcClient jdbc, SqlStatements sql) {
        this.jdbc = jdbc;
        this.clock = Clock.systemUTC();
        this.insertVoucher = sql.get("insert-voucher");
        this.findVoucher = sql.get("find-voucher");
        this.selectVouchersOnSale = sql.get("select-vouchers-on-sale");
        this.selectVoucherOrders = sql.get("select-voucher-orders");
        this.selectVoucherSold = sql.get("select-voucher-sold");
    }

    public Voucher insert(VoucherRequest request) {
        KeyHolder key = new GeneratedKeyHolder();
        jdbc.sql(insertVoucher)
                .param("title", request.title())
                .param("stock", request.stock())
                .param("beginAt", utc(request.beginAt()))
                .param("endAt", request.endAt() == null ? null : utc(request.endAt()))
                .param("createdAt", OffsetDateTime.now(clock))
                .param("buckets", request.buckets())
                .update(key, "id");
        long id = key.getKeyAs(Number.class).longValue();
        return new Voucher(id, request.title(), request.stock(), request.beginAt(), request.endAt(), request.buckets(),
                null, null);
    }

    public Optional<Voucher> find(long id) {
        return jdbc.sql(findVoucher).param("id", id).query(VoucherRepository::voucher).optional();
    }

    /**
     * A page of the vouchers whose sale has not ended or ended after {@code endedAfter}, in id order.
     *
     * @param afterId the last id of the previous page (0 for the first)
     */
    public List<Voucher> onSale(long afterId, Instant endedAfter, int pageSize) {
        return jdbc.sql(selectVouchersOnSale)
                .param("afterId", afterId)
                .param("endedAfter", utc(endedAfter))
                .param("pageSize", pageSize)
                .query(VoucherRepository::voucher).list();
    }

    /** Streams a voucher's written orders, whatever their status, without holding them all in memory. */
    public void forEachOrder(long voucherId, Consumer<OrderOfVoucher> action) {
        jdbc.sql(selectVoucherOrders).param("voucherId", voucherId)
                .query(rs -> {
                    OffsetDateTime payBefore = rs.getObject("pay_before", OffsetDateTime.class);
                    action.accept(new OrderOfVoucher(rs.getLong("order_id"), rs.getLong("user_id"),
                            rs.getString("status"), payBefore == null ? null : payBefore.toInstant().toEpochMilli()));
                });
    }

    /** voucher id → its live orders (the {@code sold} column), for the ids from {@code fromId} to {@code toId}. */
    public Map<Long, Long> sold(long fromId, long toId) {
        Map<Long, Long> sold = new HashMap<>();
        jdbc.sql(selectVoucherSold).param("fromId", fromId).param("toId", toId).query(rs -> {
            sold.put(rs.getLong("id"), rs.getLong("sold"));
        });
        return sold;
    }

    /** @param payBefore epoch ms; null for an order without a payment window */
    public record OrderOfVoucher(long orderId, long userId, String status, Long payBefore) {}

    private static Voucher voucher(ResultSet rs, int row) throws SQLException {
        OffsetDateTime endAt = rs.getObject("end_at", OffsetDateTime.class);
        return new Voucher(
                rs.getLong("id"),
                rs.getString("title"),
                rs.getInt("stock"),
                rs.getObject("begin_at", OffsetDateTime.class).toInstant(),
                endAt == null ? null : endAt.toInstant(),
                rs.getInt("buckets"),
                null,
                null);
    }

    private static OffsetDateTime utc(Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
