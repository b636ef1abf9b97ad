package io.seckill.expiry;

import io.seckill.config.SqlStatements;
import org.springframework.jdbc.core.simple.JdbcClient;
import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/** The database half of an expiry: CREATED → CANCELLED and the voucher's live count, in one transaction. */
@Component
public class OrderCancellation {

    private final JdbcClient jdbc;
    private final TransactionTemplate transactions;
    private final String cancelOrder;
    private final String releaseSoldUnit;

    public OrderCancellation(JdbcClient jdbc, TransactionTemplate transactions, SqlStatements sql) {
        this.jdbc = jdbc;
        this.transactions = transactions;
        this.cancelOrder = sql.get("cancel-order");
        this.releaseSoldUnit = sql.get("release-sold-unit");
    }

    /** @return true when this call cancelled the order; false when it was not unpaid any more (paid meanwhile) */
    public boolean cancel(long orderId, long voucherId) {
        Boolean cancelled = transactions.execute(tx -> {
            if (jdbc.sql(cancelOrder).param("orderId", orderId).update() != 1) {
                return false;
            }
            jdbc.sql(releaseSoldUnit).param("voucherId", voucherId).update();
            return true;
        });
        return Boolean.TRUE.equals(cancelled);
    }
}
