package io.github.boundedupload.jdbc.internal;

import static io.github.boundedupload.jdbc.internal.TaskHost.LOG;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.FileUploader;
import io.github.boundedupload.spi.ListedObject;
import io.github.boundedupload.support.Backoff;
import io.github.boundedupload.support.SafeText;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Removing what a batch stored when nobody keeps it: a batch is claimed (its caller rolled back, a delete was given up,
 * its lease ended unsettled) and a compensation task deletes each of its keys from the storage, then forgets it; a try
 * that fails is tried again with backoff until the storage confirms, by whichever instance is alive. Changes when what
 * a compensation does changes.
 */
public final class Compensations implements TaskHost.Task {

    /** Expired batches claimed per page, and pages per recovery run. */
    private static final int PAGE = 100;
    private static final int MAX_PAGES = 10;

    /** Deletes from the storage; throws when the storage does not confirm. */
    public interface Remover {
        /**
         * Deletes what the storage holds under a key (and, on S3, the incomplete multipart uploads of that key).
         *
         * @param key the key
         * @throws Exception when the storage does not confirm
         */
        void key(String key) throws Exception;

        /**
         * Deletes exactly an object an upload stored, where the storage can tell it from another under the same key
         * (its version, or a delete conditional on its ETag).
         *
         * @param stored what the upload stored
         * @throws Exception when the storage does not confirm
         */
        void object(StoredObject stored) throws Exception;

        /**
         * The objects under a prefix, in key order, after a key, at most {@code limit}: what a reconciliation of the
         * prefix looks at ({@code FileUploader.list}).
         *
         * @throws Exception when the storage cannot be read, or cannot list
         */
        List<ListedObject> list(String prefix, @Nullable String after, int limit) throws Exception;
    }

    /** Deletes from a blocking storage. */
    public static Remover remover(FileUploader storage) {
        return new Remover() {
            @Override
            public void key(String key) throws Exception {
                storage.delete(key);
            }

            @Override
            public void object(StoredObject stored) throws Exception {
                storage.delete(stored);
            }

            @Override
            public List<ListedObject> list(String prefix, @Nullable String after, int limit) throws Exception {
                return storage.list(prefix, after, limit);
            }
        };
    }

    /** Deletes from a non-blocking storage, waiting for each delete at most {@code timeout}. */
    public static Remover remover(AsyncFileUploader storage, Duration timeout) {
        return new Remover() {
            @Override
            public void key(String key) throws Exception {
                await(storage.delete(key), timeout);
            }

            @Override
            public void object(StoredObject stored) throws Exception {
                await(storage.delete(stored), timeout);
            }

            @Override
            public List<ListedObject> list(String prefix, @Nullable String after, int limit) throws Exception {
                return await(storage.listAsync(prefix, after, limit), timeout);
            }
        };
    }

    private static <T> T await(CompletableFuture<T> delete, Duration timeout) throws Exception {
        try {
            return delete.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            throw cause instanceof Exception ? (Exception) cause : e;
        } catch (TimeoutException | InterruptedException e) {
            delete.cancel(true);
            throw e;
        }
    }

    private final TaskHost host;
    private final Remover remover;
    private final Duration busyPause;
    private final String owner;
    private final Backoff backoff;
    private final int failingAfter;
    private final Duration maxRetryPause;
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong retried = new AtomicLong();

    public Compensations(TaskHost host, Remover remover, String owner, Duration firstRetryPause,
            Duration maxRetryPause, int failingAfter, Duration busyPause) {
        this.host = host;
        this.remover = remover;
        this.busyPause = busyPause;
        this.owner = owner;
        this.backoff = new Backoff(firstRetryPause, maxRetryPause);
        this.maxRetryPause = maxRetryPause;
        this.failingAfter = failingAfter;
    }

    /** What deletes from the storage. */
    Remover remover() {
        return remover;
    }

    /** Compensations this instance completed. */
    public long completed() {
        return completed.get();
    }

    /** Failed tries of compensations this instance scheduled again. */
    public long retried() {
        return retried.get();
    }

    /**
     * Keys a kept batch did not keep: moved to a batch of their own, removed at once. Only keys {@code fromBatch} still
     * holds move: a key its batch lost (taken over, removed, and perhaps given to another batch since) stays where it is.
     */
    public void removeApart(List<String> keys, String uploader, String fromBatch, String what) {
        String id = UUID.randomUUID().toString();
        long now = System.currentTimeMillis();
        host.runInOwnTransaction("hand over what " + what + " did not keep", c -> {
            Store.insertBatch(c, id, uploader, owner, null, Store.OPEN, now, now);
            Store.moveKeys(c, keys, fromBatch, id);
        });
        claim(id);
    }

    /** Claims an open batch and schedules its compensation now; never throws (the lease still covers it). */
    public void claim(String id) {
        try {
            boolean claimed = host.inOwnTransaction("claim batch " + id, c -> {
                if (Store.claim(c, id) != 1) {
                    return false;
                }
                host.schedule(TaskHost.COMPENSATION, id, c);
                return true;
            });
            if (claimed) {
                host.triggerCheck();
            }
        } catch (RuntimeException e) {
            LOG.warn("upload journal: could not claim batch {} now (its caller's transaction holds it, or the database"
                    + " failed); the recovery claims it when its lease ends, or its instance stops beating: {}", id,
                    SafeText.describe(e));
        }
    }

    /**
     * The recurring recovery: claims open batches whose lease ended, and open batches of instances declared dead
     * ({@link Liveness#declareDead}), which do not wait for their lease.
     */
    public void recover() {
        claimAll("find expired batches", c -> Store.expired(c, System.currentTimeMillis(), PAGE),
                "was not settled before its lease ended (its process died, or its caller did not commit)");
        claimAll("find batches of dead instances", c -> Store.ofDeadSessions(c, PAGE),
                "was run by an instance that stopped sending heartbeats (it died, or was paused or cut off for longer"
                        + " than the liveness timeout)");
    }

    private void claimAll(String what, TaskHost.InTransaction<List<String>> find, String why) {
        for (int page = 0; page < MAX_PAGES; page++) {
            List<String> found = host.inOwnTransaction(what, find);
            for (String id : found) {
                LOG.info("upload journal: batch {} {}; removing what it stored", id, why);
                claim(id);
            }
            if (found.size() < PAGE) {
                return;
            }
        }
    }

    /**
     * A compensation task: deletes every key of a claimed batch, then forgets it. Each key is deleted while its row is
     * locked and still the batch's ({@link Store#lockKey}): an earlier run of this compensation on an instance that was
     * paused meanwhile, and comes back, finds the keys gone or locked and deletes nothing that another batch holds, or
     * kept since. A key locked by such a run makes this run wait and try again, without counting a failure. Throws to be
     * retried when the storage does not confirm.
     */
    @Override
    public @Nullable Duration run(String id, RunFence fence) {
        Optional<List<String>> found = host.inOwnTransaction("read batch " + id, c -> Store.keysOf(c, id));
        if (found.isEmpty()) {
            return null; // removed already
        }
        List<String> keys = found.get();
        for (String key : keys) {
            try {
                host.runInOwnTransaction("remove " + SafeText.quote(key) + " of batch " + id, c -> {
                    if (Store.lockKey(c, key, id)) {
                        removeHolding(key, id);
                    }
                });
            } catch (RuntimeException e) {
                if (!Store.isLockWait(e)) {
                    throw e;
                }
                LOG.info("upload journal: another run of the compensation of batch {} holds {} (its instance is"
                        + " paused or slow); trying again in {}", id, SafeText.quote(key), busyPause);
                return busyPause;
            }
        }
        int forgotten = host.inOwnTransaction("forget batch " + id, c -> Store.delete(c, id));
        if (forgotten == 1) {
            completed.incrementAndGet();
            LOG.info("upload journal: removed the {} keys of batch {}", keys.size(), id);
        } else if (!fence.holds()) {
            fence.notDone("a compensation of batch " + id + " found it removed by another run when it ended");
        }
        return null;
    }

    /** Deletes a key whose row {@code c}'s transaction holds locked. */
    private void removeHolding(String key, String id) {
        try {
            remover.key(key);
        } catch (Exception e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            throw new UploadException("could not delete " + SafeText.quote(key) + " to undo batch " + id + ": "
                    + SafeText.describe(e), e);
        }
    }

    /** A compensation holds nothing while it runs: run again, it deletes the keys that are left. */
    @Override
    public void ownerDied(String id, String deadInstance) {
    }

    @Override
    public Duration failed(String id, int tries, String why) {
        host.recordFailedTry("batch " + id, c -> Store.failed(c, id, tries, why));
        Duration pause = backoff.pause(tries);
        retried.incrementAndGet();
        if (tries == failingAfter) {
            LOG.error("upload journal: removing batch {} failed {} times in a row; trying again every {} at most,"
                    + " until the storage confirms: {}", id, tries, maxRetryPause, why);
        } else {
            LOG.warn("upload journal: removing batch {} failed (try {}); trying again in {}: {}", id, tries, pause,
                    why);
        }
        return pause;
    }
}
