package io.github.boundedupload.internal;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadJournal;
import io.github.boundedupload.support.SafeText;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * A batch in the uploader's {@link UploadJournal}: begun with every key before the batch's first byte, kept by its
 * caller once it stored what it keeps, forgotten once it is settled and keeps nothing. Never called under the lock (a
 * journal writes to its database). Changes when what the uploader tells its journal changes.
 */
final class JournalRecord {

    /** The record of a batch of an uploader without a journal: it may always act, and nothing is written. */
    static final JournalRecord NONE = new JournalRecord(new UploadJournal.Entry() {
        @Override
        public void keep(List<String> kept) {
        }

        @Override
        public void settled(boolean confirmed) {
        }
    }, new BatchEvent("", 0, 0));

    private final UploadJournal.Entry entry;
    private final BatchEvent event;

    private JournalRecord(UploadJournal.Entry entry, BatchEvent event) {
        this.entry = entry;
        this.event = event;
    }

    /**
     * Records the batch in the journal, if the uploader has one; nothing of it is written before this returns.
     *
     * @return the record, or null without a journal
     * @throws UploadException when the journal cannot record it: the batch is refused
     */
    static @Nullable JournalRecord begin(Engine engine, BatchEvent event, List<String> keys) {
        UploadJournal journal = engine.config.journal().orElse(null);
        if (journal == null) {
            return null;
        }
        Duration maxRunTime = engine.config.batchTimeout().plus(engine.config.stopTimeout().multipliedBy(2));
        try {
            return new JournalRecord(Objects.requireNonNull(journal.begin(event, keys, maxRunTime), "journal entry"),
                    event);
        } catch (RuntimeException e) {
            throw new UploadException("could not record " + event + " in the upload journal, so nothing of it was"
                    + " started: " + (e instanceof UploadException ? e.getMessage() : SafeText.describe(e)), e);
        }
    }

    /**
     * Keeps the keys the batch stored.
     *
     * @throws UploadException when the journal cannot keep them: it removes the objects itself
     */
    void keep(List<String> keys) {
        try {
            entry.keep(keys);
        } catch (RuntimeException e) {
            throw new UploadException(event + " stored its attachments, but the upload journal could not keep them,"
                    + " so it removes them again: " + SafeText.describe(e), e);
        }
    }

    /**
     * Whether this process still owns the batch ({@link UploadJournal.Entry#owned()}); a journal that fails to say
     * counts as a no: acting on a batch that may be another process's is what must not happen.
     */
    boolean owned() {
        return this == NONE || asks(entry::owned, "act on", null);
    }

    /** Whether an upload may write {@code key} now ({@link UploadJournal.Entry#writing}); see {@link #owned}. */
    boolean writing(String key) {
        return this == NONE || asks(() -> entry.writing(key), "write", key);
    }

    /** Whether {@code stored} is the batch's to keep or delete ({@link UploadJournal.Entry#stored}); see {@link #owned}. */
    boolean stored(StoredObject stored) {
        return this == NONE || asks(() -> entry.stored(stored), "keep or delete", stored.key());
    }

    /** Asks the journal; the words of the warning ({@code verb}, the key) are put together only when it fails. */
    private boolean asks(BooleanSupplier question, String verb, @Nullable String key) {
        try {
            return question.getAsBoolean();
        } catch (RuntimeException e) {
            String step = key == null ? verb : verb + " " + SafeText.quote(key) + " of";
            Engine.LOG.warn("uploader '{}': the upload journal could not say whether this process may still {} {},"
                    + " so it does not: {}", event.uploaderName(), step, event, SafeText.describe(e));
            return false;
        }
    }

    /** Stops {@code batch}'s calls in flight once the journal takes it over ({@link UploadJournal.Entry#whenLost}). */
    void whenLost(Batch batch) {
        try {
            entry.whenLost(batch::takenOver);
        } catch (RuntimeException e) {
            Engine.LOG.warn("uploader '{}': the upload journal could not watch {}; it is still checked before each"
                    + " call: {}", event.uploaderName(), event, SafeText.describe(e));
        }
    }

    /**
     * Tells the journal the batch keeps nothing: with a {@code failure} (a delete given up, or the batch never started
     * after all), the journal removes its keys itself. Never throws: the journal's lease covers a failure.
     */
    void forget(@Nullable Throwable failure) {
        try {
            entry.settled(failure == null);
        } catch (RuntimeException e) {
            // Nothing for an operator to do: the journal's recovery removes the batch's keys (when its lease ends, or
            // when this instance is taken for dead), whatever happened to this call.
            Engine.LOG.warn("uploader '{}': could not settle {} in the upload journal; the journal's recovery removes"
                    + " its keys: {}", event.uploaderName(), event, SafeText.describe(e));
        }
    }
}
