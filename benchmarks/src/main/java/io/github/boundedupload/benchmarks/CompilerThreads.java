package io.github.boundedupload.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The CPU time of this JVM's JIT compiler threads, from Linux's {@code /proc/self/task}: the JVM hides them from
 * {@code ThreadMXBean}. Every measured JVM runs with {@code -XX:-UseDynamicNumberOfCompilerThreads}, so that no
 * compiler thread ends (and takes its CPU time with it) between two readings. Changes when how the JIT compiler
 * threads' CPU time is read changes.
 */
final class CompilerThreads {

    /** Clock ticks per second of {@code /proc}'s times: 100 on Linux for every architecture this runs on. */
    private static final long TICKS_PER_SECOND = 100;

    private CompilerThreads() {
    }

    /** The CPU time, in nanoseconds, of the compiler threads ("C1 CompilerThre", "C2 CompilerThre"); 0 off Linux. */
    static long cpuNanos() {
        return ProcTasks.sum(CompilerThreads::compilerTicks) * (1_000_000_000L / TICKS_PER_SECOND);
    }

    private static long compilerTicks(Path task) {
        try {
            String name = Files.readString(task.resolve("comm")).trim();
            if (!name.startsWith("C1 Compiler") && !name.startsWith("C2 Compiler")) {
                return 0;
            }
            // After the command name in parentheses: state, then 10 more fields, then utime and stime (man 5 proc).
            String stat = Files.readString(task.resolve("stat"));
            String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(fields[11]) + Long.parseLong(fields[12]);
        } catch (IOException | RuntimeException e) {
            return 0; // the thread ended between listing and reading
        }
    }
}
