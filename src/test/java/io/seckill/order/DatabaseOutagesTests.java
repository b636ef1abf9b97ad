package io.seckill.order;

import static org.assertj.core.api.Assertions.assertThat;

import io.seckill.order.DatabaseOutages.Kind;
import java.io.IOException;
import java.sql.SQLException;
import org.h2.message.DbException;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStoreException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.transaction.TransactionSystemException;

/** Which failures are outages: the embedded H2 file on a full disk, and a rollback that failed after one. */
class DatabaseOutagesTests {

    /** What H2's JDBC driver throws when its store cannot write a commit: a "General error" around the store's. */
    private static SQLException h2CouldNotWrite() {
        MVStoreException store = new MVStoreException(DataUtils.ERROR_WRITING_FAILED, "Writing to file failed");
        store.initCause(new IOException("No space left on device"));
        return DbException.toSQLException(store);
    }

    @Test
    void anH2FileThatCouldNotBeWrittenIsAnOutage() {
        SQLException commit = h2CouldNotWrite();
        assertThat(commit.getSQLState()).as("H2's general error, which says nothing by itself").isEqualTo("HY000");

        assertThat(DatabaseOutages.classify(new UncategorizedSQLException("commit", null, commit)))
                .isEqualTo(Kind.STATEMENT);
    }

    @Test
    void aRollbackThatFailedAfterAnOutageIsTheOutage() {
        // The pool closed the connection under the transaction: its rollback says only that.
        TransactionSystemException rollback = new TransactionSystemException("JDBC rollback failed",
                new SQLException("Connection is closed"));
        assertThat(DatabaseOutages.classify(rollback)).isEqualTo(Kind.NONE);

        rollback.initApplicationException(new UncategorizedSQLException("commit", null, h2CouldNotWrite()));

        assertThat(DatabaseOutages.classify(rollback)).isEqualTo(Kind.STATEMENT);
    }

    @Test
    void aRollbackThatFailedAfterAnOrdersOwnFailureIsNoOutage() {
        TransactionSystemException rollback = new TransactionSystemException("JDBC rollback failed",
                new SQLException("Connection is closed"));
        rollback.initApplicationException(new DuplicateKeyException("orders' primary key"));

        assertThat(DatabaseOutages.classify(rollback)).isEqualTo(Kind.NONE);
    }
}
