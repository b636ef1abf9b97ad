package io.seckill.bench;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The PostgreSQL leg's databases on the server at 127.0.0.1:5432 (user postgres), made for the run and dropped at its
 * end, through psql: it authenticates as an operator's psql does (~/.pgpass, PGPASSWORD), which the JDBC URL the
 * service and the harness's steps use relies on too.
 */
final class PostgresDatabases implements AutoCloseable {

    private final List<String> created = new ArrayList<>();
    private final Thread hook = new Thread(this::close, "bench-drop-databases");
    private volatile boolean keep;

    /** Drops the databases on Ctrl-C or SIGTERM too, as run.sh's trap did. */
    PostgresDatabases() {
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Whether psql is installed and a server answers. */
    static boolean available() {
        try {
            psql("SELECT 1");
            return true;
        } catch (IOException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return false;
        }
    }

    static String version() throws IOException, InterruptedException {
        return psql("SHOW server_version").strip();
    }

    /** Creates a database dropped by close() (unless kept). NAME is the run's own: letters, digits, underscores. */
    synchronized void create(String name) throws IOException, InterruptedException {
        if (!name.matches("\\w+")) {
            throw new IllegalArgumentException("not a plain database name: " + name);
        }
        psql("CREATE DATABASE " + name);
        created.add(name);
    }

    /** Leaves the databases in place at the end (BENCH_KEEP_DATA=1, or a run whose checks failed). */
    void keep() {
        keep = true;
    }

    @Override
    public synchronized void close() {
        if (Thread.currentThread() != hook) {
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException shuttingDown) {
                // the hook is running or has run
            }
        }
        if (keep) {
            return;
        }
        for (String name : created) {
            try {
                psql("DROP DATABASE IF EXISTS " + name + " WITH (FORCE)");
            } catch (IOException | InterruptedException e) {
                System.err.println("bench: could not drop database " + name + ": " + e.getMessage());
            }
        }
        created.clear();
    }

    private static String psql(String sql) throws IOException, InterruptedException {
        Process process = new ProcessBuilder("psql", "-X", "-q", "-tA", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1",
                "-U", "postgres", "-d", "postgres", "-c", sql).redirectErrorStream(true).start();
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        if (process.waitFor() != 0) {
            throw new IOException("psql failed on '" + sql + "': " + output.strip());
        }
        return output;
    }
}
