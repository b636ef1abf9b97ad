package io.seckill.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The processes a bench driver starts (services, the reference controller, wrk, redis-benchmark), each stopped when
 * the driver is done with it, when the driver ends, fails or is interrupted: close() stops whatever is still running,
 * newest first, and a shutdown hook does the same on Ctrl-C or SIGTERM, as the shell scripts' trap did, then says
 * where the run's logs are ({@link StopNotice}).
 */
final class ChildProcesses implements AutoCloseable {

    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

    private final Deque<Child> running = new ArrayDeque<>();
    /** Set by the first stopAll(): the code of an interrupted driver runs on meanwhile, but starts nothing more. */
    private boolean stopping;
    private final Thread hook;

    /** NOTICE says, once the hook has stopped the processes, where an interrupted run's logs are. */
    ChildProcesses(StopNotice notice) {
        this.hook = new Thread(() -> notice.interrupted(this::stopAll), "bench-stop-children");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** A line of progress on the terminal, stamped with the time of day (UTC), as the scripts printed them. */
    static void say(String message) {
        System.out.println(LocalTime.now(ZoneOffset.UTC).format(CLOCK) + "  " + message);
    }

    /** Starts COMMAND in DIRECTORY (null: this one), its output and errors both to LOG. */
    Child start(Path directory, Path log, Duration grace, ProcessBuilder command) throws IOException {
        if (directory != null) {
            Files.createDirectories(directory);
            command.directory(directory.toFile());
        }
        command.redirectErrorStream(true).redirectOutput(log.toFile());
        return started(command, log, grace);
    }

    /** Runs COMMAND to its end, its output to OUTPUT and its errors to the terminal; fails on a non-zero exit. */
    void run(Path output, ProcessBuilder command) throws IOException, InterruptedException {
        command.redirectOutput(output.toFile()).redirectError(ProcessBuilder.Redirect.INHERIT);
        Child child = started(command, output, Duration.ofSeconds(5));
        try {
            int status = child.process.waitFor();
            if (status != 0) {
                throw new IOException(command.command().get(0) + " exited with " + status + "; its output: " + output);
            }
        } finally {
            child.stop();
        }
    }

    private Child started(ProcessBuilder command, Path log, Duration grace) throws IOException {
        synchronized (running) {
            if (stopping) {
                throw new IOException("stopping: " + command.command().get(0) + " not started");
            }
            Child child = new Child(command.start(), log, grace);
            running.push(child);
            return child;
        }
    }

    private void stopAll() {
        while (true) {
            Child child;
            synchronized (running) {
                stopping = true;
                child = running.poll();
            }
            if (child == null) {
                return;
            }
            child.stop();
        }
    }

    @Override
    public void close() {
        stopAll();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: it stops the rest
        }
    }

    /** One started process and the log it writes. */
    final class Child {
        private final Process process;
        private final Path log;
        private final Duration grace;

        private Child(Process process, Path log, Duration grace) {
            this.process = process;
            this.log = log;
            this.grace = grace;
        }

        long pid() {
            return process.pid();
        }

        boolean isAlive() {
            return process.isAlive();
        }

        Path log() {
            return log;
        }

        /**
         * Waits until a line of the log matches PATTERN and returns the match; fails when the process exits first or
         * the deadline passes. WHAT names the process in the failure.
         */
        Matcher awaitLine(Pattern pattern, long deadlineNanos, String what) throws IOException, InterruptedException {
            while (true) {
                Optional<Matcher> match = firstMatch(pattern);
                if (match.isPresent()) {
                    return match.get();
                }
                if (!process.isAlive()) {
                    throw new IOException(what + " exited during start-up: " + log);
                }
                if (System.nanoTime() > deadlineNanos) {
                    throw new IOException(what + " did not start in time: " + log);
                }
                Thread.sleep(100);
            }
        }

        /** The first line of the log so far that matches PATTERN. */
        Optional<Matcher> firstMatch(Pattern pattern) {
            try (var lines = Files.lines(log)) {
                return lines.map(pattern::matcher).filter(Matcher::find).findFirst();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } catch (UncheckedIOException e) {
                // a log line cut in the middle of a multi-byte character while the process writes it: read it again
                return Optional.empty();
            }
        }

        /** SIGTERM, then SIGKILL once its grace period is over; returns once it has exited. */
        void stop() {
            synchronized (running) {
                running.remove(this);
            }
            if (!process.isAlive()) {
                return;
            }
            process.destroy();
            try {
                if (!process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS)) {
                    say("process " + process.pid() + " did not stop in " + grace.toSeconds() + " s; killing it");
                    process.destroyForcibly().waitFor();
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
    }
}
