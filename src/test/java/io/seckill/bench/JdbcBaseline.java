package io.seckill.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the database alone can take: the backlog's rows written with the service's own schema and insert statement,
 * in JDBC batches of the service's batch size, one transaction per batch as the service's writer commits them, into
 * a fresh database (an H2 file with the service's durability, or an empty PostgreSQL database with the driver's
 * reWriteBatchedInserts as the service sets it). Run on the service jar's own libraries: the very driver it writes
 * with.
 *
 * <pre>jdbc JDBC_URL USER ROWS BATCH SCHEMA_SQL INSERT_SQL VOUCHER</pre>
 */
final class JdbcBaseline {

    /** The ids run.sh gives backlog orders ("8" and 18 digits): far above any Snowflake id of this century. */
    static final long FIRST_ORDER_ID = 8_000_000_000_000_000_000L;
    private static final Pattern NAMED = Pattern.compile(":#(\\w+)");

    private JdbcBaseline() {
    }

    static void run(String[] args) throws Exception {
        String url = args[0];
        String user = args[1];
        int rows = Integer.parseInt(args[2]);
        int batchSize = Integer.parseInt(args[3]);
        String schema = Files.readString(Path.of(args[4]));
        String insert = Files.readString(Path.of(args[5]));
        long voucherId = Long.parseLong(args[6]);

        List<String> parameters = new ArrayList<>();
        Matcher named = NAMED.matcher(statement(insert));
        StringBuilder sql = new StringBuilder();
        while (named.find()) {
            parameters.add(named.group(1));
            named.appendReplacement(sql, "?");
        }
        named.appendTail(sql);

        try (Connection connection = DriverManager.getConnection(url, user, "")) {
            try (Statement ddl = connection.createStatement()) {
                for (String each : statement(schema).split(";")) {
                    if (!each.isBlank()) {
                        ddl.execute(each);
                    }
                }
            }
            connection.setAutoCommit(false);
            OffsetDateTime createdAt = OffsetDateTime.ofInstant(Instant.now(), ZoneOffset.UTC);
            com.sun.management.OperatingSystemMXBean os =
                    (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
            long cpuStart = os.getProcessCpuTime();
            // PostgreSQL's work for this connection: its backend process, on this machine (it exits when the
            // connection closes, before run.sh could read it).
            long backend = url.startsWith("jdbc:postgresql:") ? backendPid(connection) : -1;
            long backendCpuStart = backend > 0 ? processCpuMicros(backend) : 0;
            long start = System.nanoTime();
            try (PreparedStatement statement = connection.prepareStatement(sql.toString())) {
                for (int i = 1; i <= rows; i++) {
                    Map<String, Object> row = Map.of("orderId", FIRST_ORDER_ID + i, "voucherId", voucherId,
                            "userId", (long) i, "createdAt", createdAt,
                            "payBefore", createdAt.plusMinutes(15));
                    for (int p = 0; p < parameters.size(); p++) {
                        statement.setObject(p + 1, row.get(parameters.get(p)));
                    }
                    statement.addBatch();
                    if (i % batchSize == 0 || i == rows) {
                        statement.executeBatch();
                        connection.commit();
                    }
                }
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            double cpuPerRow = (os.getProcessCpuTime() - cpuStart) / 1e3 / rows;
            double backendCpuPerRow = backend > 0 ? (processCpuMicros(backend) - backendCpuStart) / (double) rows : 0;
            try (Statement count = connection.createStatement();
                 ResultSet result = count.executeQuery("SELECT COUNT(*) FROM orders")) {
                result.next();
                if (result.getLong(1) != rows) {
                    throw new IllegalStateException("baseline wrote " + result.getLong(1) + " rows, not " + rows);
                }
            }
            ResultLines.print("jdbc_rows", rows);
            ResultLines.print("jdbc_seconds", String.format(Locale.ROOT, "%.2f", seconds));
            ResultLines.print("jdbc_rate", ResultLines.perSecond(rows / seconds));
            // This JVM's CPU per row (µs), the database's own work with H2; the drain's rows print the same key.
            ResultLines.print("cpu_us_per_order_jvm", String.format(Locale.ROOT, "%.1f", cpuPerRow));
            if (backend > 0) {
                ResultLines.print("cpu_us_per_order_postgres", String.format(Locale.ROOT, "%.1f", backendCpuPerRow));
            }
        }
    }

    private static long backendPid(Connection connection) throws SQLException {
        try (Statement query = connection.createStatement();
             ResultSet result = query.executeQuery("SELECT pg_backend_pid()")) {
            result.next();
            return result.getLong(1);
        }
    }

    /** A process's CPU time (user + system, µs) from /proc/PID/stat, read past the name's ")"; Linux's 100 ticks/s. */
    private static long processCpuMicros(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
        return (Long.parseLong(fields[11]) + Long.parseLong(fields[12])) * 10_000;
    }

    /** The SQL without its comment lines. */
    private static String statement(String text) {
        StringBuilder sql = new StringBuilder();
        for (String line : text.split("\n")) {
            if (!line.strip().startsWith("--")) {
                sql.append(line).append('\n');
            }
        }
        return sql.toString();
    }
}
