package io.seckill.config;

import com.zaxxer.hikari.SQLExceptionOverride;
import java.sql.SQLException;
import org.h2.api.ErrorCode;
import org.h2.jdbc.JdbcException;

/**
 * Hikari's verdict on a connection whose H2 database has been closed under it: drop it. H2 closes its file when a
 * commit cannot be written (a full disk) and opens it again for the next new connection; the connections already
 * open answer "The database has been closed" (90098) for good. Hikari drops a connection only on the states that
 * mean a lost one (class 08, a few servers' shutdown codes), and validates one on loan only after it has been idle, so
 * a busy writer kept borrowing the dead ones: with room on the disk again, orders stayed unwritten until a restart.
 * Any other failure is left to Hikari's own judgement. Set by
 * {@code spring.datasource.hikari.exception-override-class-name}; other drivers' failures are never H2's
 * {@link JdbcException}.
 */
public class ClosedH2DatabaseEviction implements SQLExceptionOverride {

    @java.lang.Override
    public Override adjudicate(SQLException failure) {
        return failure instanceof JdbcException h2 && (h2.getErrorCode() == ErrorCode.DATABASE_IS_CLOSED
                || h2.getErrorCode() == ErrorCode.DATABASE_CALLED_AT_SHUTDOWN) ? Override.MUST_EVICT
                : Override.CONTINUE_EVICT;
    }
}
