package io.github.boundedupload.jdbc.internal;

import static io.github.boundedupload.jdbc.internal.TaskHost.LOG;

import io.github.boundedupload.UploadException;
import io.github.boundedupload.spi.AsyncFileUploader;
import io.github.boundedupload.spi.FileUploader;
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

    /** Deletes one key from the storage; throws when the storage does not confirm. */
    @FunctionalInterface
    public interface KeyRemover {
        /**
         * Deletes the key.
         *
         * @param key the key
         * @throws Exception when the storage does not confirm
         */
        void remove(String key) throws Exception;
    }

    /** Deletes from a blocking storage. */
    public static KeyRemover remover(FileUploader storage) {
        return storage::delete;
    }

    /** Deletes from a non-blocking storage, waiting for each delete at most {@code timeout}. */
    public static KeyRemover remover(AsyncFileUploader storage, Duration timeout) {
        return key -> {
            CompletableFuture<Void> delete = storage.delete(key);
            try {
                delete.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            } catch (ExecutionException e) {
                Throwable cause = e.getCause();
                throw cause instanceof Exception ? (Exception) cause : e;
            } catch (TimeoutException | InterruptedException e) {
                delete.cancel(true);
                throw e;
            }
        };
    }

    private final TaskHost host;
    private final KeyRemover remover;
    private final String owner;
    private final Backoff backoff;
    private final int failingAfter;
    private final Duration maxRetryPause;
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong retried = new AtomicLong();

    public Compensations(TaskHost host, KeyRemover remover, String owner, Duration firstRetryPause,
            Duration maxRetryPause, int failingAfter) {
        this.host = host;
        this.remover = remover;
        this.owner = owner;
        this.backoff = new Backoff(firstRetryPause, maxRetryPause);
        this.maxRetryPause = maxRetryPause;
        this.failingAfter = failingAfter;
    }

    /** Compensations this instance completed. */
    public long completed() {
        return completed.get();
    }

    /** Failed tries of compensations this instance scheduled again. */
    public long retried() {
        return retried.get();
    }

    /** Keys a kept batch did not keep: moved to a batch of their own, removed at once. */
    public void removeApart(List<String> keys, String uploader, String what) {
        String id = UUID.randomUUID().toString();
        long now = System.currentTimeMillis();
        host.runInOwnTransaction("hand over what " + what + " did not keep", c -> {
            Store.insertBatch(c, id, uploader, owner, Store.OPEN, now, now);
            Store.moveKeys(c, keys, id);
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
            LOG.warn("upload journal: could not start removing batch {} now; it is removed when its lease ends: {}",
                    id, SafeText.describe(e));
        }
    }

    /** The recurring recovery: claims open batches whose lease ended. */
    public void recover() {
        for (int page = 0; page < MAX_PAGES; page++) {
            List<String> expired = host.inOwnTransaction("find expired batches",
                    c -> Store.expired(c, System.currentTimeMillis(), PAGE));
            for (String id : expired) {
                LOG.info("upload journal: batch {} was not settled before its lease ended (its process died, or its"
                        + " caller did not commit); removing what it stored", id);
                claim(id);
            }
            if (expired.size() < PAGE) {
                return;
            }
        }
    }

    /** A compensation task: deletes every key of a claimed batch, then forgets it. Throws to be retried. */
    @Override
    public void run(String id) {
        Optional<List<String>> found = host.inOwnTransaction("read batch " + id, c -> Store.keysOf(c, id));
        if (found.isEmpty()) {
            return; // removed already
        }
        List<String> keys = found.get();
        for (String key : keys) {
            try {
                remover.remove(key);
            } catch (Exception e) {
                if (e instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                throw new UploadException("could not delete " + SafeText.quote(key) + " to undo batch " + id + ": "
                        + SafeText.describe(e), e);
            }
        }
        host.runInOwnTransaction("forget batch " + id, c -> Store.delete(c, id));
        completed.incrementAndGet();
        LOG.info("upload journal: removed the {} keys of batch {}", keys.size(), id);
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
