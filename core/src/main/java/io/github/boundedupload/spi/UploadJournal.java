package io.github.boundedupload.spi;

import io.github.boundedupload.StoredObject;
import java.time.Duration;
import java.util.List;

/**
 * A durable record of what batches may write, so that what a batch stored is removed even when the process that ran
 * it dies, or when the caller's own transaction rolls back after the upload. Without a journal, an uploader undoes
 * failed batches from memory, which holds only while the JVM lives. Changes when what the uploader tells a journal
 * about a batch changes.
 *
 * <p>The uploader calls {@link #begin} before a batch writes its first byte, and then exactly one of the entry's
 * methods, or none when the process dies first: then the journal undoes the batch itself once its lease has passed.
 * {@code io.github.boundedupload.jdbc.JdbcUploadJournal} (module {@code bounded-upload-jdbc}) keeps the journal in the
 * application's database.
 */
public interface UploadJournal {

    /**
     * Records a batch and every key it may write, durably, before anything is written. Called on the thread that
     * submits the batch.
     *
     * @param batch the batch
     * @param keys every key the batch may write, in input order
     * @param maxRunTime the longest the batch can still run in this process (its batch timeout, plus two stop timeouts
     *        for cancelled calls and the first try of their deletes): a batch not settled by then, plus a margin for
     *        {@link Entry#keep}, was left by a process that died
     * @return the entry the uploader settles the batch with
     * @throws RuntimeException when the batch cannot be recorded; the uploader then refuses the batch, with nothing
     *         written
     */
    Entry begin(BatchEvent batch, List<String> keys, Duration maxRunTime);

    /** One batch in the journal. */
    interface Entry {

        /**
         * The batch's result keeps these objects: the journal forgets them. Called on the thread that receives the
         * result ({@code uploadAll}'s caller, or the thread that completes {@code uploadAllAsync}'s future), so that
         * a journal can write this in that thread's transaction: then the objects are kept if, and only if, that
         * transaction commits. Keys of the batch not among them are removed by the journal.
         *
         * @param kept the keys whose objects the result reports stored
         * @throws RuntimeException when the batch cannot be kept any more (its lease passed and the journal has
         *         started removing it), or the journal cannot be written; the objects are then removed by the journal
         */
        void keep(List<String> kept);

        /**
         * The batch keeps nothing, and nothing of it runs any more.
         *
         * @param confirmed whether every key the batch may have written is confirmed empty: then the journal forgets
         *        the batch; otherwise it removes the keys itself, retrying until the storage confirms
         */
        void settled(boolean confirmed);

        /**
         * Whether this process still owns the batch: false once another process may have taken it over (the journal
         * judged this one dead after it was paused or cut off, or the batch's lease ended), and then for good. The
         * uploader asks before each upload and each delete of the batch, and takes neither step when it is false: the
         * batch's objects are the journal's to remove then, and its keys may hold what another process stored since.
         * Called on the uploader's threads (for a non-blocking storage, also on the threads that complete its
         * futures), so it must be cheap when the answer is known: the default journal answers from memory, and asks
         * its database only when it cannot tell otherwise. The default is true: a journal that hands no batch over.
         *
         * @return whether the batch is still this process's to act on
         */
        default boolean owned() {
            return true;
        }

        /**
         * Whether this process may start writing {@code key} now: {@link #owned()}, asked right before an upload of
         * the key calls the storage. From a true answer on, the journal counts the key as possibly written, until the
         * upload returns ({@link #stored}): should the batch be lost meanwhile, what the call still writes is the
         * journal's to remove, and only such keys are (a key the batch never wrote may hold what another batch kept
         * since). The default returns {@link #owned()}.
         *
         * @param key the key about to be written
         * @return whether the upload may call the storage
         */
        default boolean writing(String key) {
            return owned();
        }

        /**
         * An upload of the batch stored {@code object}. Returns whether the batch was still this process's when the
         * storage answered ({@link #owned()}); when it was not, the object may have landed after another process
         * removed the batch's objects, so nothing else would remove it: the journal removes it (unless its key holds
         * what another batch stored since), and the uploader neither keeps nor deletes it. Called where
         * {@link #owned()} is. The default returns {@link #owned()}.
         *
         * @param object what the storage reported stored
         * @return whether the uploader may treat the object as the batch's
         */
        default boolean stored(StoredObject object) {
            return owned();
        }

        /**
         * Asks to run {@code action}, once, as soon as the journal learns that this process no longer owns the batch
         * (at once if it knows already): the uploader stops the batch's calls in flight then, so that a multipart
         * upload that began before a pause is aborted instead of completed after the batch was taken over. Called once,
         * after {@link UploadJournal#begin}. The default does nothing: {@link #owned()} alone stops what has not
         * started.
         *
         * @param action what to run; it does not throw, and may take the uploader's lock
         */
        default void whenLost(Runnable action) {
        }
    }
}
