package io.seckill.bench;

import java.nio.file.Path;

/**
 * What every leg of bench/run.sh works with ({@link BenchRun}): the repository (ROOT), the run's folder and the
 * packaged service it measures, the settings, the processes it starts, the measuring tools (the harness's own steps,
 * wrk, the reference controller) and the facts it notes for the summary.
 */
record RunContext(Path root, Path run, Path jar, BenchSettings settings, ChildProcesses processes, HarnessSteps steps,
        Wrk wrk, ReferenceController reference, RunFacts facts) {

    Path logs() {
        return run.resolve("logs");
    }

    /** logs/NAME: a step's results or a process's log. */
    Path log(String name) {
        return logs().resolve(name);
    }

    Path work() {
        return run.resolve("work");
    }

    /** The service's admission script, which the references and the drain's backlog run too. */
    Path admitScript() {
        return root.resolve("lua/admitOrder-6.lua");
    }
}
