package io.github.boundedupload.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The context switches of this process so far (voluntary and not), from {@code /proc/self/task/<tid>/status}:
 * each one is a thread parked and another woken, CPU that no profile of Java frames shows. Threads that ended took
 * theirs with them. Linux only; elsewhere 0. Changes when how context switches are counted changes.
 */
final class ContextSwitches {

    private ContextSwitches() {
    }

    static long now() {
        return ProcTasks.sum(ContextSwitches::of);
    }

    private static long of(Path task) {
        long switches = 0;
        try {
            for (String line : Files.readAllLines(task.resolve("status"))) {
                if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                    switches += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        } catch (IOException | RuntimeException e) {
            return 0; // the thread ended while it was read: its switches went with it
        }
        return switches;
    }
}
