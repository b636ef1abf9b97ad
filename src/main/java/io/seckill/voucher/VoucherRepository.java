package io.seckill.voucher;

import io.seckill.config.SqlStatements;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
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
    private final String selectVouchers;
    private final String selectVoucherOrders;
    private final String selectVoucherSold;

    public VoucherRepository(JdbcClient jdbc, SqlStatements sql) {
        this.jdbc = jdbc;
        this.clock = Clock.systemUTC();
        this.insertVoucher = sql.get("insert-voucher");
        this.findVoucher = sql.get("find-voucher");
        this.selectVouchers = sql.get("select-vouchers");
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
                .update(key, "id");
        long id = key.getKeyAs(Number.class).longValue();
        return new Voucher(id, request.title(), request.stock(), request.beginAt(), request.endAt(), null);
    }

    public Optional<Voucher> find(long id) {
        return jdbc.sql(findVoucher).param("id", id).query(VoucherRepository::voucher).optional();
    }

    public List<Voucher> all() {
        return jdbc.sql(selectVouchers).query(VoucherRepository::voucher).list();
    }

    /** Streams (order id, buyer) of a voucher's written orders without holding them all in memory. */
    public void forEachOrder(long voucherId, Consumer<OrderOfVoucher> action) {
        jdbc.sql(selectVoucherOrders).param("voucherId", voucherId)
                .query(rs -> {
                    action.accept(new OrderOfVoucher(rs.getLong("order_id"), rs.getLong("user_id")));
                });
    }

    /** voucher id → its live orders (the {@code sold} column). */
    public Map<Long, Long> sold() {
        Map<Long, Long> sold = new HashMap<>();
        jdbc.sql(selectVoucherSold).query(rs -> {
            sold.put(rs.getLong("id"), rs.getLong("sold"));
        });
        return sold;
    }

    public record OrderOfVoucher(long orderId, long userId) {}

    private static Voucher voucher(ResultSet rs, int row) throws SQLException {
        OffsetDateTime endAt = rs.getObject("end_at", OffsetDateTime.class);
        return new Voucher(
                rs.getLong("id"),
                rs.getString("title"),
                rs.getInt("stock"),
                rs.getObject("begin_at", OffsetDateTime.class).toInstant(),
                endAt == null ? null : endAt.toInstant(),
                null);
    }

    private static OffsetDateTime utc(java.time.Instant instant) {
        return instant.atOffset(ZoneOffset.UTC);
    }
}
