package io.github.boundedupload.benchmarks;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;

/**
 * The context switches of this process so far (voluntary and not), from {@code /proc/self/task/<tid>/status}:
 * each one is a thread parked and another woken, CPU that no profile of Java frames shows. Threads that ended took
 * theirs with them. Linux only; elsewhere 0. Changes when how context switches are counted changes.
 */
final class ContextSwitches {

    private ContextSwitches() {
    }

    static long now() {
        File[] tasks = new File("/proc/self/task").listFiles();
        long switches = 0;
        if (tasks == null) {
            return 0;
        }
        for (File task : tasks) {
            try {
                for (String line : Files.readAllLines(task.toPath().resolve("status"))) {
                    if (line.startsWith("voluntary_ctxt_switches:") || line.startsWith("nonvoluntary_ctxt_switches:")) {
                        switches += Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                    }
                }
            } catch (IOException | RuntimeException e) {
                // The thread ended while it was read: its switches went with it.
            }
        }
        return switches;
    }
}
