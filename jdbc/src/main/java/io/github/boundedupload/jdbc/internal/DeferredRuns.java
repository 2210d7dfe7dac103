package io.github.boundedupload.jdbc.internal;

import static io.github.boundedupload.jdbc.internal.TaskHost.LOG;

import io.github.boundedupload.UploadException;
import io.github.boundedupload.support.Backoff;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * The deferred-upload task: which uploader runs a staged batch on this instance (each registers its {@link Runner} by
 * name), the backoff of a batch that was not stored, what an upload cut by its instance's death left, and forgetting
 * outcomes kept long enough. Changes when the
 * scheduling of deferred uploads changes, not when what an upload does changes.
 */
public final class DeferredRuns implements TaskHost.Task {

    /** Uploads what is pending of a staged batch; throws to be tried again later. */
    @FunctionalInterface
    public interface Runner {
        /**
         * Runs the batch.
         *
         * @param batchId the deferred batch
         * @param fence what this run owns: it uploads nothing, and records no failure, once it no longer holds
         */
        void run(String batchId, RunFence fence);
    }

    /** How long the outcome of a finished attachment stays queryable. */
    public static final Duration KEEP_FINISHED = Duration.ofDays(7);

    private final TaskHost host;
    private final Compensations compensations;
    private final Backoff backoff;
    private final Map<String, Runner> byUploader = new ConcurrentHashMap<>();
    private final AtomicLong retried = new AtomicLong();

    public DeferredRuns(TaskHost host, Compensations compensations, Duration firstRetryPause, Duration maxRetryPause) {
        this.host = host;
        this.compensations = compensations;
        this.backoff = new Backoff(firstRetryPause, maxRetryPause);
    }

    /**
     * This instance runs the deferred uploads of {@code uploaderName} with {@code runner}.
     *
     * @throws IllegalArgumentException when it runs that uploader's already
     */
    public void register(String uploaderName, Runner runner) {
        if (byUploader.putIfAbsent(uploaderName, runner) != null) {
            throw new IllegalArgumentException("the journal runs deferred uploads of uploader '" + uploaderName
                    + "' already");
        }
    }

    /** Failed tries of deferred batches this instance scheduled again. */
    public long retried() {
        return retried.get();
    }

    @Override
    public @Nullable Duration run(String batchId, RunFence fence) {
        String uploader = host.inOwnTransaction("read deferred batch " + batchId,
                c -> DeferredStore.uploaderOf(c, batchId)).orElse(null);
        if (uploader == null) {
            return null; // forgotten
        }
        Runner runner = byUploader.get(uploader);
        if (runner == null) {
            throw new UploadException("no DeferredUploads of uploader '" + uploader + "' runs on this instance", null);
        }
        runner.run(batchId, fence);
        return null;
    }

    @Override
    public Duration failed(String batchId, int tries, String why) {
        host.recordFailedTry("deferred batch " + batchId, c -> DeferredStore.failedTry(c, batchId));
        Duration pause = backoff.pause(tries);
        retried.incrementAndGet();
        LOG.warn("upload journal: deferred batch {} was not uploaded (try {}); trying again in {}: {}", batchId, tries,
                pause, why);
        return pause;
    }

    /**
     * The instance that uploaded this batch died: the journal batch its upload had begun (which holds the keys until
     * its lease ends, 31 minutes with the defaults) is removed now, so that the upload, run again at once, finds its
     * keys free within seconds instead of waiting out a lease that nobody will settle. Only open batches of this
     * batch's pending keys that no live instance runs are claimed (their session is no longer alive; or, from an
     * instance older than the journal's version 2, they are the dead instance's): an instance that is only slow keeps
     * its batch, and the upload runs again once that batch is settled.
     */
    @Override
    public void ownerDied(String batchId, String deadInstance) {
        List<String> left = host.inOwnTransaction("find what deferred batch " + batchId + " left",
                c -> Store.openBatchesHolding(c, deadInstance, DeferredStore.pendingKeys(c, batchId)));
        for (String id : left) {
            LOG.info("upload journal: instance {} died while it uploaded deferred batch {}; removing what its upload"
                    + " left (batch {}) before the upload runs again", deadInstance, batchId, id);
            compensations.claim(id);
        }
    }

    /** Forgets the outcomes of deferred attachments that ended more than {@link #KEEP_FINISHED} ago. */
    public void forgetFinished() {
        host.runInOwnTransaction("forget finished deferred attachments",
                c -> DeferredStore.forgetFinished(c, System.currentTimeMillis() - KEEP_FINISHED.toMillis()));
    }
}
