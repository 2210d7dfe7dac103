package io.github.boundedupload.spi;

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
    }
}
