package io.seckill.order;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.sql.SQLTransientException;
import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStoreException;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.RecoverableDataAccessException;
import org.springframework.dao.TransientDataAccessException;
import org.springframework.stereotype.Component;
import org.springframework.transaction.TransactionSystemException;

/**
 * Tells a database outage from a failure of one order, for everything that must not turn an outage into dead
 * letters or hang on it: the order-writing routes' error handling ({@code routes/error-handling.camel.yaml}), the
 * pending sweeper and the order lookup.
 *
 * <p>An outage is anything that goes away without a person fixing an order: the server unreachable or the pool
 * out of connections, and also failures on connections that still validate: a read-only standby after a failover
 * (SQLSTATE 25006), serialization failures and deadlocks (40001, 40P01), insufficient resources such as a full
 * disk (class 53), statement and lock timeouts (57014, 55P03, HYT00, HYT01), an administrator shutting the server
 * down (57P01..57P05) and lost connections (class 08). The SQLSTATE is looked for along the whole cause chain:
 * Spring's translation may wrap it in a type that says nothing (UncategorizedSQLException). The embedded H2 file
 * says its disk is full with a "General error" whose cause is its store's failure to write; it closes the file then,
 * and opens it again for the next connection once there is room.
 *
 * <p>It remembers when it last recognised an outage, and when the sweeper last wrote: the sweeper stops counting
 * deliveries while writes fail, and the order lookup answers 503 at once while connections are refused instead of
 * holding a request thread for the pool's connection timeout.
 */
@Component("databaseOutages")
public class DatabaseOutages {

    private static final long NEVER = Long.MIN_VALUE;
    private static final int MAX_CAUSES = 32;
    private static final Set<String> OUTAGE_STATES = Set.of("25006", "40001", "40P01", "55P03", "57014", "HYT00",
            "HYT01");
    private static final Set<String> OUTAGE_CLASSES = Set.of("08", "53", "57P");
    /** H2's file store could not write (a full disk), or has been closed since. */
    private static final Set<Integer> H2_STORE_OUTAGES = Set.of(DataUtils.ERROR_WRITING_FAILED, DataUtils.ERROR_CLOSED);

    private volatile long lastOutage = NEVER;
    private volatile long lastRefusedConnection = NEVER;
    private volatile long lastWrite = NEVER;

    /**
     * Whether this failure is a database outage; one that is, is remembered. Called by the routes' error handling
     * ({@code onWhen}) and by code reading the database.
     */
    public boolean recognise(Throwable failure) {
        Kind kind = classify(failure);
        if (kind == Kind.NONE) {
            return false;
        }
        long now = System.nanoTime();
        lastOutage = now;
        if (kind == Kind.CONNECTION) {
            lastRefusedConnection = now;
        }
        return true;
    }

    /** A write went through: the outage the writers met, if any, is over. */
    public void writeSucceeded() {
        lastWrite = System.nanoTime();
    }

    /** Whether writes met an outage within {@code window} and none went through since. */
    public boolean writesFailing(Duration window) {
        long outage = lastOutage;
        long write = lastWrite;
        return within(outage, window) && (write == NEVER || outage - write > 0);
    }

    /** Whether a connection was refused or lost within {@code window}. */
    public boolean connectionsFailing(Duration window) {
        return within(lastRefusedConnection, window);
    }

    private static boolean within(long stamp, Duration window) {
        return stamp != NEVER && System.nanoTime() - stamp < window.toNanos();
    }

    static Kind classify(Throwable failure) {
        Kind kind = Kind.NONE;
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Throwable cause = failure; cause != null && seen.size() < MAX_CAUSES && seen.add(cause);
                cause = next(cause)) {
            Kind here = kindOf(cause);
            // A rollback that failed after the transaction's own failure: Spring keeps that one beside the rollback's,
            // not as its cause (a connection the pool closed under it says only "Connection is closed").
            if (cause instanceof TransactionSystemException rollback && rollback.getApplicationException() != null
                    && seen.add(rollback.getApplicationException())) {
                Kind original = classify(rollback.getApplicationException());
                here = original.compareTo(here) > 0 ? original : here;
            }
            if (here == Kind.CONNECTION) {
                return here;
            }
            if (here == Kind.STATEMENT) {
                kind = here;
            }
        }
        return kind;
    }

    /** The cause, or for a SQLException without one the next exception of its chain (batches report there). */
    private static Throwable next(Throwable failure) {
        if (failure.getCause() != null) {
            return failure.getCause();
        }
        return failure instanceof SQLException sql ? sql.getNextException() : null;
    }

    private static Kind kindOf(Throwable failure) {
        if (failure instanceof SQLTransientConnectionException || failure instanceof SQLNonTransientConnectionException
                || failure instanceof SQLRecoverableException || failure instanceof DataAccessResourceFailureException
                || failure instanceof RecoverableDataAccessException) {
            return Kind.CONNECTION;
        }
        if (failure instanceof SQLException sql && sql.getSQLState() != null) {
            String state = sql.getSQLState();
            if (state.startsWith("08")) {
                return Kind.CONNECTION;
            }
            if (OUTAGE_STATES.contains(state) || OUTAGE_CLASSES.stream().anyMatch(state::startsWith)) {
                return Kind.STATEMENT;
            }
        }
        if (failure instanceof SQLTransientException || failure instanceof TransientDataAccessException
                || failure instanceof MVStoreException store && H2_STORE_OUTAGES.contains(store.getErrorCode())) {
            return Kind.STATEMENT;
        }
        return Kind.NONE;
    }

    /** What an outage takes away: connections altogether, or only statements on connections that still work. */
    enum Kind { NONE, STATEMENT, CONNECTION }
}
