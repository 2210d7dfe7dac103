package io.github.boundedupload.jdbc;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/** Instances of a fleet starting at the same moment: each on a thread of its own, released together by a latch. */
final class AtOnce {

    private AtOnce() {
    }

    /**
     * Builds {@code count} journals at once; throws what a build threw. The caller closes them.
     *
     * @param count how many
     * @param build builds the i-th
     * @return the journals, in order
     */
    static List<JdbcUploadJournal> start(int count, IntFunction<JdbcUploadJournal> build) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(count);
        List<JdbcUploadJournal> started = new ArrayList<>();
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<JdbcUploadJournal>> starts = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                int index = i;
                Callable<JdbcUploadJournal> start = () -> {
                    go.await();
                    return build.apply(index);
                };
                starts.add(threads.submit(start));
            }
            go.countDown();
            for (Future<JdbcUploadJournal> start : starts) {
                started.add(start.get(60, TimeUnit.SECONDS));
            }
            return started;
        } catch (Exception e) {
            started.forEach(JdbcUploadJournal::close);
            throw e;
        } finally {
            threads.shutdownNow();
        }
    }
}
