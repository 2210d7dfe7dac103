package io.github.boundedupload.jdbc.internal;

import static io.github.boundedupload.jdbc.internal.TaskHost.LOG;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.jdbc.CallerTransaction;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadJournal;
import io.github.boundedupload.support.SafeText;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * The journal as the uploader sees it ({@link UploadJournal}): before a batch writes its first byte, a row holds it
 * and every key it may write, under this instance's session ({@link Liveness}) and a lease; keeping the batch deletes
 * the row, in the caller's transaction when there is one; a batch that keeps nothing, or whose caller rolls back, goes
 * to the {@link Compensations}.
 *
 * <p>While it runs, the batch is this instance's only as long as its session is alive and its lease has not ended.
 * Once either fails (the instance was paused, or cut off from the database, and the fleet may have given the batch to
 * another instance), it is lost: the uploader stops its calls and starts no other, and the keys its calls may still
 * write (called, and not returned while the batch was owned) are taken back under a batch of this instance's current
 * session, each key that no other batch holds and no deferred attachment was stored under since; a key the batch never
 * wrote is left alone, since it may hold what another batch kept since. So what a call still in flight writes after the takeover (a PUT whose bytes were on their way, a
 * multipart upload begun just before the pause) has an owner again: it is removed once the batch's calls have ended,
 * or, if this instance dies first, by the instance that finds it dead. Changes when what the uploader asks of its
 * journal changes.
 */
public final class BatchRecords {

    private final TaskHost host;
    private final Compensations compensations;
    private final Liveness liveness;
    private final CallerTransaction transactions;
    private final String owner;
    private final Duration keepMargin;
    private final Duration heartbeat;
    /** Entries whose batch runs, or may still write, on this instance. */
    private final Set<Entry> running = ConcurrentHashMap.newKeySet();
    /** The transaction of a deferred run rolled back: the batches kept in it are not kept, and are removed now. */
    public void keptButRolledBack(List<String> kept) {
        kept.forEach(compensations::claim);
    }

    public BatchRecords(TaskHost host, Compensations compensations, Liveness liveness,
            CallerTransaction transactions, String owner, Duration keepMargin, Duration heartbeat) {
        this.host = host;
        this.compensations = compensations;
        this.liveness = liveness;
        this.transactions = transactions;
        this.owner = owner;
        this.keepMargin = keepMargin;
        this.heartbeat = heartbeat;
        liveness.whenLost((session, why) -> {
            for (Entry entry : running) {
                if (entry.session.equals(session)) {
                    entry.lose(why);
                }
            }
        });
    }

    /** See {@link UploadJournal#begin}: the row and its keys, committed before this returns. */
    public UploadJournal.Entry begin(BatchEvent batch, List<String> keys, Duration maxRunTime) {
        String id = UUID.randomUUID().toString();
        String session = liveness.session();
        long now = System.currentTimeMillis();
        long runUntil = now + maxRunTime.toMillis();
        boolean deferredRun = DeferredRunTransaction.current() != null;
        host.runInOwnTransaction("record " + batch, c -> {
            try {
                Store.insertBatch(c, id, batch.uploaderName(), owner, session, Store.OPEN, now,
                        runUntil + keepMargin.toMillis());
                Store.insertKeys(c, id, keys);
                Optional<String> stored = deferredRun ? DeferredStore.storedAmong(c, keys) : Optional.empty();
                if (stored.isPresent()) {
                    c.rollback();
                    throw new UploadException("key " + SafeText.quote(stored.get()) + " belongs to a deferred"
                            + " attachment that is stored already (another instance ran its upload)", null);
                }
            } catch (SQLException e) {
                if (!Store.isDuplicate(e)) {
                    throw e;
                }
                c.rollback();
                String held = Store.heldKey(c, keys).orElse("?");
                throw new UploadException("key " + SafeText.quote(held) + " belongs to a batch that is not settled"
                        + " yet (an upload of that key runs, waits for its caller's commit, or is being removed)",
                        null);
            }
        });
        Entry entry = new Entry(id, session, runUntil, List.copyOf(keys), batch);
        running.add(entry);
        return entry;
    }

    /** One batch's row. */
    private final class Entry implements UploadJournal.Entry {
        private final String id;
        private final String session;
        private final long runUntil;
        private final List<String> keys;
        private final BatchEvent batch;
        // Guarded by this:
        private boolean lost;
        private boolean keeping;
        private boolean ended;
        private boolean removedBack;
        private @Nullable String takenBack;
        private final Set<String> toTakeBack = new LinkedHashSet<>();
        /** Keys whose upload called the storage and has not returned with an object while the batch was owned. */
        private final Set<String> writing = new HashSet<>();
        private @Nullable Runnable whenLost;

        Entry(String id, String session, long runUntil, List<String> keys, BatchEvent batch) {
            this.id = id;
            this.session = session;
            this.runUntil = runUntil;
            this.keys = keys;
            this.batch = batch;
        }

        @Override
        public boolean owned() {
            synchronized (this) {
                if (lost) {
                    return false;
                }
            }
            boolean running = System.currentTimeMillis() < runUntil;
            if (running && liveness.alive(session)) {
                return true;
            }
            lose(running ? "the fleet may have taken this instance for dead" : "its lease ended");
            return false;
        }

        @Override
        public boolean writing(String key) {
            if (!owned()) {
                return false;
            }
            synchronized (this) {
                if (lost) {
                    return false;
                }
                writing.add(key);
                return true;
            }
        }

        @Override
        public boolean stored(StoredObject object) {
            if (owned()) {
                synchronized (this) {
                    if (!lost) {
                        writing.remove(object.key()); // landed while the batch was owned: the new owner removes it
                        return true;
                    }
                }
            }
            // Not the batch's if it was lost when the storage answered: the keys taken back cover it.
            return false;
        }

        @Override
        public void whenLost(Runnable action) {
            boolean now;
            synchronized (this) {
                now = lost && !ended;
                whenLost = now ? null : action;
            }
            if (now) {
                action.run();
            }
        }

        /**
         * The batch is no longer this instance's: said once, the uploader told to stop its calls, and the keys taken
         * back. Not once the batch is being kept or has ended: then nothing of it runs any more.
         */
        void lose(String why) {
            Runnable stop;
            synchronized (this) {
                if (lost || keeping || ended) {
                    lost = true;
                    return;
                }
                lost = true;
                toTakeBack.addAll(writing); // only what the batch's calls may still write
                stop = whenLost;
                whenLost = null;
            }
            host.fencing().notDone(batch + " (journal batch " + id + ") is no longer this instance's (" + why + "):"
                    + " it uploads and deletes nothing more; what it stored is removed by the instance that takes it"
                    + " over, and what its calls still write, by this one");
            try {
                if (stop != null) {
                    liveness.background().execute(stop); // never on the thread that asked: it may hold the uploader
                }
                liveness.background().execute(this::takeBack);
            } catch (RejectedExecutionException e) {
                LOG.warn("upload journal: {} was lost as the journal closed; what its calls still write is removed"
                        + " when this instance's session is found dead", batch);
            }
        }

        /**
         * Takes the batch's keys back under a batch of this instance's current session, so that what the batch's calls
         * still write has an owner: each key no other batch holds; a key the lost batch itself still holds (its
         * removal by another instance runs) is tried again every heartbeat interval; one a deferred attachment was
         * stored under since is left. Once every key is taken back or left and the batch's calls have ended, the batch
         * they were taken back under is removed. On the journal's own thread.
         */
        private void takeBack() {
            String batchId;
            List<String> keysLeft;
            synchronized (this) {
                if (toTakeBack.isEmpty()) {
                    return;
                }
                if (takenBack == null) {
                    takenBack = UUID.randomUUID().toString();
                }
                batchId = takenBack;
                keysLeft = new ArrayList<>(toTakeBack);
            }
            List<String> taken = new ArrayList<>();
            List<String> left = new ArrayList<>();
            try {
                String current = liveness.session();
                long now = System.currentTimeMillis();
                host.runInOwnTransaction("take back the keys of " + batch, c -> {
                    if (!Store.exists(c, batchId)) {
                        Store.insertBatch(c, batchId, batch.uploaderName(), owner, current, Store.OPEN, now,
                                Math.max(now, runUntil) + keepMargin.toMillis());
                    }
                    for (String key : keysLeft) {
                        String holder = Store.holderOf(c, key);
                        if (holder == null && !DeferredStore.isStored(c, key)) {
                            Store.insertKeys(c, batchId, List.of(key));
                            taken.add(key);
                        } else if (id.equals(holder)) {
                            left.add(key); // still the lost batch's: taken back once its removal forgot it
                        }
                    }
                });
            } catch (RuntimeException e) {
                LOG.warn("upload journal: could not take back the keys of {}, which was lost; trying again in {}: {}",
                        batch, heartbeat, SafeText.describe(e));
                again();
                return;
            }
            synchronized (this) {
                toTakeBack.removeAll(keysLeft);
                toTakeBack.addAll(left);
            }
            if (!taken.isEmpty()) {
                LOG.info("upload journal: took back {} keys of {} (journal batch {}), which was lost: what its calls"
                        + " still write is removed once they have ended", taken.size(), batch, batchId);
            }
            if (!left.isEmpty()) {
                again();
            }
            removeTakenBackOnceDone();
        }

        /**
         * Removes what the batch's keys were taken back under, once every key is and the batch's calls have ended:
         * nothing of it writes any more. Once.
         */
        private void removeTakenBackOnceDone() {
            String back;
            synchronized (this) {
                if (!ended || !toTakeBack.isEmpty() || takenBack == null || removedBack) {
                    return;
                }
                removedBack = true;
                back = takenBack;
            }
            compensations.claim(back);
        }

        private void again() {
            try {
                liveness.background().schedule(this::takeBack, heartbeat.toMillis(), TimeUnit.MILLISECONDS);
            } catch (RejectedExecutionException e) {
                LOG.warn("upload journal: {} was lost as the journal closed; what its calls still write is removed"
                        + " when this instance's session is found dead", batch);
            }
        }

        /** Ends the entry: nothing of the batch runs any more. Returns whether the batch was lost. */
        private synchronized boolean end() {
            ended = true;
            running.remove(this);
            return lost;
        }

        @Override
        public void keep(List<String> kept) {
            boolean owned;
            synchronized (this) {
                owned = !lost;
                keeping = owned;
            }
            if (!owned) {
                end();
                compensations.claim(id); // when another instance took it over: claimed already, nothing happens
                removeTakenBackOnceDone();
                throw new UploadException(batch + " is being removed already: this instance lost it (its lease"
                        + " ended, or it was taken for dead) before it was kept", null);
            }
            try {
                keepOwned(kept);
            } finally {
                end();
            }
        }

        private void keepOwned(List<String> kept) {
            Set<String> keep = new HashSet<>(kept);
            List<String> rest = new ArrayList<>();
            for (String key : keys) {
                if (!keep.contains(key)) {
                    rest.add(key);
                }
            }
            if (!rest.isEmpty()) {
                compensations.removeApart(rest, batch.uploaderName(), id, batch.toString());
            }
            DeferredRunTransaction deferredRun = DeferredRunTransaction.current();
            Connection caller = deferredRun != null ? deferredRun.connection() : transactions.current();
            int forgotten;
            if (caller != null) {
                try {
                    forgotten = Store.forgetOpen(caller, id);
                } catch (SQLException e) {
                    throw new UploadException("could not keep " + batch + " in the caller's transaction: "
                            + e.getMessage(), e);
                }
                if (forgotten == 1 && deferredRun != null) {
                    deferredRun.kept().add(id);
                } else if (forgotten == 1) {
                    transactions.afterRollback(() -> compensations.claim(id));
                }
            } else {
                forgotten = host.inOwnTransaction("keep " + batch, c -> Store.forgetOpen(c, id));
            }
            if (forgotten != 1) {
                throw new UploadException(batch + " is being removed already: its lease ended, or this instance was"
                        + " taken for dead, before it was kept", null);
            }
        }

        @Override
        public void settled(boolean confirmed) {
            boolean wasLost = end();
            if (confirmed && !wasLost) {
                host.inOwnTransaction("forget " + batch, c -> Store.forgetOpen(c, id));
            } else {
                compensations.claim(id); // when another instance took it over: claimed already, nothing happens
            }
            removeTakenBackOnceDone();
        }

        @Override
        public String toString() {
            return "journal entry " + id + " of " + batch;
        }
    }
}
