package io.seckill.config;

import static io.seckill.support.H2OrderFile.ROWS_PER_COMMIT;
import static io.seckill.support.H2OrderFile.create;
import static io.seckill.support.H2OrderFile.info;
import static io.seckill.support.H2OrderFile.writeOrders;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.seckill.support.FullDisk;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

/**
 * The service's H2 file ({@code WRITE_DELAY=0}, as application.yaml has it) written the way the order writer writes
 * it ({@link io.seckill.support.H2OrderFile}): each commit a chunk of the file of its own. H2's own
 * housekeeping, which would merge them, is off with that setting; {@link H2Compaction} does it instead. What an
 * operator sees of it is H2's own account of its file ({@code INFORMATION_SCHEMA.SETTINGS}: {@code info.CHUNK_COUNT},
 * {@code info.CHUNKS_FILL_RATE}). H2 keeps a chunk for its retention time (45 s) before it may be rewritten; here it
 * is 0, so the test needs not wait for it.
 */
class H2CompactionIntegrationTests {

    private static final int COMMITS = 2_000;

    @TempDir
    Path dir;

    private H2Compaction compaction;
    private Connection keptOpen;

    @AfterEach
    void stop() throws SQLException {
        if (compaction != null) {
            compaction.stop();
        }
        if (keptOpen != null) {
            keptOpen.close();
        }
    }

    @Test
    void withoutItEveryCommitLeavesAChunkBehind() throws SQLException {
        DataSource database = open("jdbc:h2:file:" + dir.resolve("seckill") + ";WRITE_DELAY=0;RETENTION_TIME=0");

        writeOrders(database, 0, COMMITS);

        // What the service's file did before H2Compaction: a chunk a commit, never merged (2,002 chunks, 12 % of their
        // bytes live, a file of 35 MB for 4 MB of rows).
        assertThat(info(database, "CHUNK_COUNT")).isGreaterThan(COMMITS / 2);
        assertThat(info(database, "CHUNKS_FILL_RATE")).isLessThan(30);
        assertThat(info(database, "FILE_SIZE")).isGreaterThan(20L << 20);
    }

    @Test
    void itMergesTheCommitsChunksWhileOrdersAreWritten() throws SQLException {
        String url = "jdbc:h2:file:" + dir.resolve("seckill") + ";WRITE_DELAY=0;RETENTION_TIME=0";
        DataSource database = open(url);
        compaction = new H2Compaction(database, url, Duration.ofMillis(20));
        compaction.start();
        assertThat(compaction.isRunning()).isTrue();

        writeOrders(database, 0, COMMITS);
        // The pages it rewrote are stored by the next commit, as the writer's next batch would.
        int[] commits = {COMMITS};
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            writeOrders(database, commits[0]++, 1);
            return info(database, "CHUNK_COUNT") < COMMITS / 20 && info(database, "CHUNKS_FILL_RATE") >= 80;
        });
        // The file the same orders make without it, for the file's size: 35 MB against 5.6-13 MB with it (the latter
        // depends on how far the compaction is behind these fast writes).
        long fileSize = info(database, "FILE_SIZE");
        DataSource control = new DriverManagerDataSource(
                "jdbc:h2:file:" + dir.resolve("control") + ";WRITE_DELAY=0;RETENTION_TIME=0", "sa", "");
        // Open throughout: H2 compacts a file when its last connection closes.
        try (Connection open = control.getConnection()) {
            writeOrders(create(control), 0, commits[0]);
            assertThat(fileSize).isLessThan(info(control, "FILE_SIZE") / 2);
        }

        compaction.stop();
        keptOpen.close();
        keptOpen = null;
        // Every order is still there, in the file: opened again, the database has them all.
        assertThat(count(open(url))).isEqualTo((long) commits[0] * ROWS_PER_COMMIT);
    }

    @Test
    void itForcesTheFileToDiskEveryInterval() throws SQLException {
        Path file = dir.resolve("seckill.mv.db");
        String url = FullDisk.h2Url(dir.resolve("seckill").toString(), ";WRITE_DELAY=0;RETENTION_TIME=0");
        DataSource database = open(url);
        // H2 writes each commit to the file and never forces it to the device: what the commits wrote waits for the
        // operating system's writeback (on Linux within 30 s, a burst at a time).
        writeOrders(database, 0, 100);
        assertThat(FullDisk.bytesNotForced(file)).isPositive();

        compaction = new H2Compaction(database, url, Duration.ofMillis(20));
        compaction.start();
        await().atMost(Duration.ofSeconds(10)).until(() -> FullDisk.bytesNotForced(file) == 0);
        // And again while orders go on being written.
        for (int round = 1; round <= 3; round++) {
            writeOrders(database, round * 100, 100);
            await().atMost(Duration.ofSeconds(10)).until(() -> FullDisk.bytesNotForced(file) == 0);
        }
        // Nothing written, nothing forced: a force flushes the device's cache, which other processes' fsyncs wait for.
        long forced = FullDisk.forces(file);
        await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2))
                .until(() -> FullDisk.forces(file) == forced);
    }

    @Test
    void afterAFullDiskClosedTheFileTheFileOpenedAgainIsCompacted() throws SQLException {
        String url = FullDisk.h2Url(dir.resolve("seckill").toString(), ";WRITE_DELAY=0;RETENTION_TIME=0");
        DataSource database = open(url);
        compaction = new H2Compaction(database, url, Duration.ofMillis(20));
        compaction.start();
        writeOrders(database, 0, 100);

        // The disk fills up: the writer's next commit cannot be written, and H2 closes the database.
        FullDisk.fill();
        try {
            assertThatThrownBy(() -> writeOrders(database, 100, 1)).isInstanceOf(SQLException.class)
                    .hasMessageContaining("Writing to");
        } finally {
            FullDisk.free();
        }
        assertThatThrownBy(() -> count(keptOpen)).hasMessageContaining("The database has been closed");
        // Space again: the next connection opens the file anew, as the pool's next one would, and keeps it open.
        keptOpen.close();
        keptOpen = database.getConnection();

        // The reopened file's commits are compacted as before the failure, not left a chunk each.
        writeOrders(database, 101, COMMITS);
        int[] commits = {101 + COMMITS};
        await().atMost(Duration.ofSeconds(30)).until(() -> {
            writeOrders(database, commits[0]++, 1);
            return info(database, "CHUNK_COUNT") < COMMITS / 20 && info(database, "CHUNKS_FILL_RATE") >= 80;
        });
        assertThat(count(database)).isEqualTo((long) (commits[0] - 1) * ROWS_PER_COMMIT);
    }

    @Test
    void anH2ThatKeepsItsOwnHousekeepingIsLeftToIt() throws SQLException {
        String url = "jdbc:h2:file:" + dir.resolve("seckill") + ";WRITE_DELAY=500";
        compaction = new H2Compaction(open(url), url, Duration.ofMillis(20));
        compaction.start();

        assertThat(compaction.isRunning()).isFalse();
    }

    @Test
    void anotherDatabaseIsNotAskedForAConnection() {
        DataSource unreachable = new DriverManagerDataSource("jdbc:postgresql://127.0.0.1:1/none") {
            @Override
            public Connection getConnection() {
                throw new AssertionError("asked a database that is not H2 for a connection");
            }
        };
        compaction = new H2Compaction(unreachable, "jdbc:postgresql://127.0.0.1:1/none", Duration.ofSeconds(1));
        compaction.start();

        assertThat(compaction.isRunning()).isFalse();
    }

    @Test
    void zeroSwitchesItOff() throws SQLException {
        String url = "jdbc:h2:file:" + dir.resolve("seckill") + ";WRITE_DELAY=0";
        compaction = new H2Compaction(open(url), url, Duration.ZERO);
        compaction.start();

        assertThat(compaction.isRunning()).isFalse();
    }

    /** The database, kept open by one connection as the service's pool keeps it. */
    private DataSource open(String url) throws SQLException {
        DataSource database = new DriverManagerDataSource(url, "sa", "");
        keptOpen = database.getConnection();
        return create(database);
    }

    private static long count(DataSource database) throws SQLException {
        try (Connection connection = database.getConnection()) {
            return count(connection);
        }
    }

    private static long count(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT COUNT(*) FROM orders")) {
            rows.next();
            return rows.getLong(1);
        }
    }
}
