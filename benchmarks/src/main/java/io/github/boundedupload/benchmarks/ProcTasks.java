package io.github.boundedupload.benchmarks;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.ToLongFunction;

/**
 * The threads of this JVM as Linux lists them, {@code /proc/self/task/<tid>}: what the JVM does not tell of its threads
 * (the JIT compiler's CPU time, every thread's context switches) is read there. Changes when how {@code /proc} is walked
 * changes.
 */
final class ProcTasks {

    private static final Path TASKS = Path.of("/proc/self/task");

    private ProcTasks() {
    }

    /**
     * The sum of {@code perTask} over the threads alive now; 0 off Linux. {@code perTask} gets a thread's directory and
     * returns 0 for a thread that ended while it was read.
     */
    static long sum(ToLongFunction<Path> perTask) {
        if (!Files.isDirectory(TASKS)) {
            return 0;
        }
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path task : tasks) {
                sum += perTask.applyAsLong(task);
            }
        } catch (IOException e) {
            return 0;
        }
        return sum;
    }
}
