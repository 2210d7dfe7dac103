package io.github.boundedupload.internal;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;

/**
 * Threads of a model-checked run, which the checker interleaves: the test's own ({@link #fork}) and the uploader's
 * executor, a thread per task. {@link #joinAll} waits for every one, so that none outlives the run. One instance serves
 * the runs of a test one after another ({@link #reset}): the uploader's settings name it, and they are built once,
 * outside the checker.
 */
final class Forks implements Executor {

    private final List<Thread> threads = new CopyOnWriteArrayList<>();

    /** A new run: forgets the threads of the last one. */
    void reset() {
        threads.clear();
    }

    /** Starts a thread running {@code body}. */
    Thread fork(Runnable body) {
        Thread thread = new Thread(body);
        threads.add(thread);
        thread.start();
        return thread;
    }

    @Override
    public void execute(Runnable task) {
        fork(task);
    }

    static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    /** Waits for every thread started so far, and for those they start meanwhile. */
    void joinAll() {
        for (int joined = 0; joined < threads.size(); joined++) {
            join(threads.get(joined));
        }
    }
}
