package io.seckill.config;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;
import org.h2.engine.SessionLocal;
import org.h2.jdbc.JdbcConnection;
import org.h2.mvstore.MVStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The housekeeping of an H2 file that {@code WRITE_DELAY=0} switches off. With it, every commit is in the file before
 * the writer acknowledges its entries (application.yaml), but H2 then starts no background writer, and that thread is
 * also the one that rewrites partly dead chunks: each commit wrote a chunk of its own that was never merged, so the
 * file grew by about 460 bytes an order and the heap by the chunks' metadata (a live set from 56 MB to over 100 MB
 * of the 160 MB heap after three million orders, and G1's full collections in the drain;
 * bench/runs/2026-11-27-h2-chunks.md). This does what H2's background writer does while writes go on: every
 * {@code interval}, rewrite the live pages of the sparsest chunks, a quarter of H2's auto-commit buffer at most, when
 * the chunks are less than H2's own target full; the next commit stores them and the emptied chunks are freed once
 * H2's retention time is over.
 *
 * <p>Every {@code interval} it also forces the file to disk. H2 writes its chunks to the operating system and never
 * forces them, so Linux wrote them out on its own schedule: every 30 s, a quarter of a gigabyte at once at 5,000
 * orders/s, and the embedded Redis's fsyncs ({@code appendfsync always}: every 202 waits for one) queued behind that
 * burst for up to 305 ms (bench/runs/2026-11-28-half-load-tail.md). Forced each second, the same bytes go out in
 * thirtieths. It also bounds what a power cut takes of orders already acknowledged in Redis to about a second's.
 *
 * <p>Only for an embedded H2 file whose auto-commit delay is 0; H2 does it itself otherwise, and an in-memory or a
 * remote database (AUTO_SERVER's second instance) has nothing here to compact.
 *
 * <p>A commit that cannot be written (a full disk) closes H2's store, and the pool's next connection opens the file
 * anew, with a store of its own: the closed one is let go and the new one compacted, found through the pool, or the
 * file would grow again for the rest of the process's life. A compaction itself writes nothing (it rewrites pages in
 * memory, stored by the next commit), so a failing disk is met by the writer's commit, which says so.
 */
@Component
public class H2Compaction implements SmartLifecycle {

    private static final Logger log = LoggerFactory.getLogger(H2Compaction.class);

    /** H2's target fill rate of chunks while writes go on: its auto-compact fill rate (90) squared. */
    private static final int TARGET_FILL_RATE = 90 * 90 / 100;
    /** How long the stop waits for a compaction under way: it writes a quarter of H2's auto-commit buffer at most. */
    private static final Duration COMPACTION_IN_FLIGHT = Duration.ofSeconds(10);

    private final DataSource dataSource;
    private final String url;
    private final Duration interval;
    private final PeriodicTask compactions = new PeriodicTask("h2-compaction");
    /** The file's store being compacted; replaced when H2 has closed it and opened the file again. */
    private volatile MVStore store;
    /** The file's write count when it was last forced; -1 before the first force. Only this task's thread reads it. */
    private long writesForced = -1;

    public H2Compaction(DataSource dataSource, @Value("${spring.datasource.url:}") String url,
            @Value("${seckill.h2.compaction-interval}") Duration interval) {
        this.dataSource = dataSource;
        this.url = url;
        this.interval = interval;
    }

    @Override
    public synchronized void start() {
        // Asked of the URL first: another database is not asked for a connection (one that is down would hold the start).
        if (!url.startsWith("jdbc:h2:") || interval.isZero() || interval.isNegative()) {
            return;
        }
        try {
            store = fileStoreWithoutHousekeeping();
        } catch (SQLException e) {
            log.warn("H2's compaction is not started: the database did not answer ({})", e.getMessage());
            return;
        }
        if (store == null) {
            return;
        }
        compactions.start(interval, this::compactAndSync);
        log.info("H2's chunks are compacted and its file forced to disk every {} (its own housekeeping is off with"
                + " WRITE_DELAY=0)", interval);
    }

    private void compactAndSync() {
        MVStore current = store;
        if (current.isClosed()) {
            current = reopenedStore();
            if (current == null) {
                return;
            }
        }
        try {
            current.compact(TARGET_FILL_RATE, Math.max(1, current.getAutoCommitMemory() / 4));
            forceIfWritten(current);
        } catch (RuntimeException e) {
            // A store closed under it: the next round finds the file's new one. A disk that cannot be written fails
            // the writer's commit as well, which says so.
            log.warn("Compacting H2's file or forcing it to disk failed: {}", e.toString());
        }
    }

    /**
     * Forces the file when anything was written to it since the last force. A force flushes the device's cache even
     * when this file has nothing in it, and Redis's fsyncs wait behind that flush: an idle service would cost them one
     * a second for nothing. The count is read before the force, so a write racing it is forced by the next round.
     */
    private void forceIfWritten(MVStore current) {
        long writes = current.getFileStore().getWriteCount();
        if (writes != writesForced) {
            current.sync();
            writesForced = writes;
        }
    }

    /** The store of the file H2 opened again after closing it, once the pool has one; null until then. */
    private MVStore reopenedStore() {
        MVStore reopened;
        try {
            reopened = fileStoreWithoutHousekeeping();
        } catch (SQLException e) {
            // The database is not back yet; the writer reports its outage.
            return null;
        }
        if (reopened == null || reopened.isClosed()) {
            return null;
        }
        store = reopened;
        // Its write count starts again: one equal to the closed store's by chance would skip its first force.
        writesForced = -1;
        log.info("H2 closed its file and opened it again; compacting the reopened file's chunks");
        return reopened;
    }

    /** The H2 file's store, when the pool's database is one whose own housekeeping is off; else null. */
    private MVStore fileStoreWithoutHousekeeping() throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            if (!connection.isWrapperFor(JdbcConnection.class)
                    || !(connection.unwrap(JdbcConnection.class).getSession() instanceof SessionLocal session)) {
                return null;
            }
            MVStore found = session.getDatabase().getStore().getMvStore();
            return found.getFileStore() != null && found.getAutoCommitDelay() == 0 ? found : null;
        }
    }

    @Override
    public synchronized void stop() {
        compactions.stop(COMPACTION_IN_FLIGHT);
    }

    @Override
    public boolean isRunning() {
        return compactions.running();
    }
}
