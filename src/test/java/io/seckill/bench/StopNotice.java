package io.seckill.bench;

import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The line that says a run stopped before its end and where its logs are, {@code bench: stopped (WHY); logs in DIR}:
 * on a failure, and on Ctrl-C or SIGTERM, where the driver's own code gets no exception, from the shutdown hook that
 * stops the run's processes ({@link ChildProcesses}). Said once: the failures an interrupt causes (its steps killed
 * with their process group, a step that may no longer start) add no second line.
 */
final class StopNotice {

    private final Path logs;
    private final AtomicBoolean stopped = new AtomicBoolean();

    StopNotice(Path logs) {
        this.logs = logs;
    }

    /**
     * Says the run stopped on FAILURE; false when an interrupt had stopped it already, so the failure is one of its
     * consequences and the JVM is on its way out.
     */
    boolean failed(Exception failure) {
        if (!stopped.compareAndSet(false, true)) {
            return false;
        }
        say(failure.toString());
        return true;
    }

    /**
     * An interrupt: runs STOPPING (the processes' stop), then says so, last, unless a failure had been said; a failure
     * meanwhile says nothing.
     */
    void interrupted(Runnable stopping) {
        boolean first = stopped.compareAndSet(false, true);
        stopping.run();
        if (first) {
            say("interrupted");
        }
    }

    private void say(String why) {
        System.err.println("bench: stopped (" + why + "); logs in " + logs);
    }
}
