package io.github.boundedupload.jdbc;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.InvalidAttachmentException;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.jdbc.internal.DeferredRuns;
import io.github.boundedupload.jdbc.internal.DeferredStore;
import io.github.boundedupload.jdbc.internal.TaskHost;
import io.github.boundedupload.support.SafeText;
import java.io.IOException;
import java.io.InputStream;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * Respond first, upload after, lose nothing. {@link #submit} checks the attachments as {@code uploadAll} would, stages
 * their content in the application's database and schedules their upload, in the caller's transaction when there is
 * one (a rolled-back request leaves nothing behind), and returns with the keys the objects will have: as fast as the
 * database alone. The uploads then run in the background on the same bounded uploader (its bounds, threads, metrics and
 * journal), on whichever instance of the application is alive, retried with backoff until they are stored or their
 * deadline passes; each attachment ends {@code STORED} or {@code FAILED} with its reason, and the
 * {@link DeferredUploadListener} hears it once. Changes when what the application can ask of deferred uploads changes.
 *
 * <pre>{@code
 * DeferredUploads deferred = DeferredUploads.builder(journal, uploader).build();
 * DeferredBatch batch = deferred.submit(List.of(Attachment.of(image)));   // in the request's transaction
 * product.setImageKey(batch.keys().get(0));                               // the key is known now
 * // later: deferred.attachments(batch.id()) -> STORED, or FAILED with the reason
 * }</pre>
 *
 * <p><b>Where content waits.</b> In the database ({@code bounded_upload_deferred}), until it is stored: durable with
 * the caller's commit, shared by every instance (one that never comes back leaves nothing stranded), and removed with
 * a rolled-back request. So deferral suits small content (product images, avatars, documents): each attachment at
 * most {@link Builder#maxAttachmentSize(long)} (16 MiB), all staged content at most
 * {@link Builder#maxStagedBytes(long)} (64 MiB) and {@link Builder#maxStagedAttachments(int)} (10,000); a batch that
 * would exceed them is refused with {@link StagingFullException} before anything is accepted. The bounds are checked
 * against what is committed: requests staging at the same moment may overshoot them by what they stage themselves.
 *
 * <p>Every instance that runs {@code DeferredUploads} for an uploader name runs the uploads of that name. A stored
 * attachment's content is dropped at once; its outcome is kept for 7 days.
 *
 * <p>This class is what the application calls: submitting (checking and staging) and asking about deferred uploads,
 * and what changes with them. One run of a staged batch, on whichever instance its task runs, is done elsewhere.
 */
public final class DeferredUploads {

    /** Largest attachment that is staged. */
    public static final long DEFAULT_MAX_ATTACHMENT_SIZE = 16L * 1024 * 1024;
    /**
     * Bound of all staged content: 64 MiB, as suits the application's own database, shared with its rows (the content
     * is in its write-ahead log, its backups and its buffer cache too); raise it for a database with room to spare.
     */
    public static final long DEFAULT_MAX_STAGED_BYTES = 64L * 1024 * 1024;
    /** Bound of staged attachments. */
    public static final int DEFAULT_MAX_STAGED_ATTACHMENTS = 10_000;
    /** How long after it was accepted an attachment is retried before it is failed. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofHours(24);
    /** How long the outcome of a finished attachment stays queryable. */
    public static final Duration KEEP_FINISHED = DeferredRuns.KEEP_FINISHED;

    private final JdbcUploadJournal journal;
    private final ConcurrentAttachmentUploader uploader;
    private final long maxAttachmentSize;
    private final long maxStagedBytes;
    private final int maxStagedAttachments;
    private final Duration deadline;
    private final DeferredRun run;

    private DeferredUploads(Builder b) {
        this.journal = b.journal;
        this.uploader = b.uploader;
        this.maxAttachmentSize = b.maxAttachmentSize;
        this.maxStagedBytes = b.maxStagedBytes;
        this.maxStagedAttachments = b.maxStagedAttachments;
        this.deadline = b.deadline;
        this.run = new DeferredRun(journal.host(), journal.records(), uploader, deadline, b.listener);
        journal.deferredRuns().register(uploader.name(), run);
    }

    /**
     * Deferred uploads through an uploader, journaled and scheduled by a journal (on the same database). The
     * uploader should have the journal too, so that an upload cut by a crash is removed before it is tried again.
     *
     * @param journal the journal whose tasks run the uploads
     * @param uploader the uploader that uploads
     * @return a builder
     */
    public static Builder builder(JdbcUploadJournal journal, ConcurrentAttachmentUploader uploader) {
        return new Builder(journal, uploader);
    }

    /**
     * Accepts a batch for upload after the response; the uploads run in any order, as many at a time as the uploader
     * allows.
     *
     * @param attachments the batch
     * @return its id and keys
     * @throws io.github.boundedupload.InvalidAttachmentException when an attachment is invalid; nothing accepted
     * @throws StagingFullException when staging it would exceed the bounds; nothing accepted
     * @throws UploadException when an attachment's content cannot be read or the database cannot be written
     */
    public DeferredBatch submit(List<Attachment> attachments) {
        return submit(attachments, false);
    }

    /**
     * Accepts a batch whose attachments are stored one after another, in input order: none is stored before the ones
     * before it.
     *
     * @param attachments the batch
     * @return its id and keys
     * @throws io.github.boundedupload.InvalidAttachmentException when an attachment is invalid; nothing accepted
     * @throws StagingFullException when staging it would exceed the bounds; nothing accepted
     * @throws UploadException when an attachment's content cannot be read or the database cannot be written
     */
    public DeferredBatch submitInOrder(List<Attachment> attachments) {
        return submit(attachments, true);
    }

    private DeferredBatch submit(List<Attachment> attachments, boolean ordered) {
        List<String> keys = uploader.check(attachments);
        List<InvalidAttachmentException.Problem> inStorage = new ArrayList<>();
        for (int i = 0; i < attachments.size(); i++) {
            if (attachments.get(i).content().storedObject().isPresent()) {
                inStorage.add(new InvalidAttachmentException.Problem(i, attachments.get(i).fileName(),
                        InvalidAttachmentException.Problem.Kind.UNREADABLE, "its content is an object in the storage"
                        + " already, to be copied there, and deferred uploads stage bytes: upload it with uploadAll"));
            }
        }
        if (!inStorage.isEmpty()) {
            throw new InvalidAttachmentException(inStorage);
        }
        String id = UUID.randomUUID().toString();
        long now = System.currentTimeMillis();
        long deadlineAt = now + deadline.toMillis();
        List<DeferredStore.Row> rows = new ArrayList<>();
        long bytes = 0;
        for (int i = 0; i < attachments.size(); i++) {
            Attachment attachment = attachments.get(i);
            byte[] content = read(i, attachment);
            bytes += content.length;
            if (bytes > maxStagedBytes) {
                // Refused before the rest is read: memory holds at most the staging bound and one attachment.
                throw new StagingFullException("cannot stage the batch: its first " + (i + 1) + " attachments"
                        + " already have " + bytes + " bytes, more than the " + maxStagedBytes + " bytes all staged"
                        + " content may have; nothing was accepted");
            }
            rows.add(new DeferredStore.Row(id, i, uploader.name(), keys.get(i), attachment.fileName(),
                    attachment.contentType().orElse(null), DeferredStore.encode(attachment.metadata()), content.length,
                    content,
                    ordered, DeferredStore.PENDING, deadlineAt, null));
        }
        long batchBytes = bytes;
        CallerTransaction transactions = journal.callerTransaction();
        Connection caller = transactions.current();
        TaskHost.InTransaction<Boolean> stage = c -> {
            DeferredStore.Staged staged = DeferredStore.staged(c);
            if (staged.bytes() + batchBytes > maxStagedBytes
                    || staged.attachments() + rows.size() > maxStagedAttachments) {
                throw new StagingFullException("cannot stage " + rows.size() + " attachments of " + batchBytes
                        + " bytes: " + staged.attachments() + " attachments of " + staged.bytes() + " bytes wait"
                        + " already, and the bounds are " + maxStagedAttachments + " attachments and "
                        + maxStagedBytes + " bytes; nothing was accepted");
            }
            DeferredStore.insert(c, rows, now);
            journal.host().schedule(TaskHost.DEFERRED, id, c);
            return Boolean.TRUE;
        };
        if (caller != null) {
            try {
                stage.run(caller);
            } catch (SQLException e) {
                throw new UploadException("could not stage the deferred batch in the caller's transaction: "
                        + e.getMessage(), e);
            }
            transactions.afterCommit(journal.host()::triggerCheck);
        } else {
            journal.host().inOwnTransaction("stage a deferred batch", stage);
            journal.host().triggerCheck();
        }
        return new DeferredBatch(id, keys);
    }

    private byte[] read(int index, Attachment attachment) {
        AttachmentContent content = attachment.content();
        if (content.length().orElse(0) > maxAttachmentSize) {
            throw new StagingFullException(SafeText.label(index, attachment.fileName()) + " is "
                    + content.length().getAsLong() + " bytes, over the " + maxAttachmentSize + " bytes an attachment"
                    + " may have to be staged; upload it with uploadAll instead");
        }
        try (InputStream in = content.openStream()) {
            byte[] bytes = in.readNBytes((int) Math.min(Integer.MAX_VALUE - 8, maxAttachmentSize + 1));
            if (bytes.length > maxAttachmentSize) {
                throw new StagingFullException(SafeText.label(index, attachment.fileName()) + " is over the "
                        + maxAttachmentSize + " bytes an attachment may have to be staged");
            }
            return bytes;
        } catch (IOException e) {
            throw new UploadException("could not read " + SafeText.label(index, attachment.fileName())
                    + " to stage it: " + SafeText.describe(e), e);
        }
    }

    /**
     * Where each attachment of a deferred batch stands.
     *
     * @param batchId the batch's id
     * @return its attachments in input order; empty when the batch is unknown (or finished more than 7 days ago)
     */
    public List<DeferredAttachment> attachments(String batchId) {
        List<DeferredStore.Row> rows = journal.host().inOwnTransaction("read deferred batch " + batchId,
                c -> DeferredStore.rows(c, batchId, false));
        List<DeferredAttachment> attachments = new ArrayList<>(rows.size());
        for (DeferredStore.Row row : rows) {
            attachments.add(DeferredRun.view(row, DeferredAttachment.State.valueOf(row.state()), row.failure()));
        }
        return attachments;
    }

    /**
     * The name of the uploader these deferred uploads go through.
     *
     * @return the uploader's name
     */
    public String uploaderName() {
        return uploader.name();
    }

    /**
     * What waits, on every instance, and what this instance recorded since it started.
     *
     * @return the figures
     */
    public Stats stats() {
        DeferredStore.Staged staged = journal.host().inOwnTransaction("read staged content", DeferredStore::staged);
        return new Stats(staged.attachments(), staged.bytes(), run.stored(), run.failed(),
                journal.deferredRuns().retried());
    }

    /**
     * What deferred uploads hold and did.
     *
     * @param pendingAttachments attachments staged and not stored yet, on every instance
     * @param stagedBytes their bytes
     * @param stored attachments this instance recorded stored
     * @param failed attachments this instance recorded failed
     * @param retried failed tries of deferred batches this instance scheduled again
     */
    public record Stats(long pendingAttachments, long stagedBytes, long stored, long failed, long retried) {
    }

    /** Builds {@link DeferredUploads}. */
    public static final class Builder {
        private final JdbcUploadJournal journal;
        private final ConcurrentAttachmentUploader uploader;
        private long maxAttachmentSize = DEFAULT_MAX_ATTACHMENT_SIZE;
        private long maxStagedBytes = DEFAULT_MAX_STAGED_BYTES;
        private int maxStagedAttachments = DEFAULT_MAX_STAGED_ATTACHMENTS;
        private Duration deadline = DEFAULT_DEADLINE;
        private DeferredUploadListener listener = new DeferredUploadListener() { };

        private Builder(JdbcUploadJournal journal, ConcurrentAttachmentUploader uploader) {
            this.journal = Objects.requireNonNull(journal, "journal");
            this.uploader = Objects.requireNonNull(uploader, "uploader");
        }

        /**
         * Sets the largest attachment that is staged ({@link #DEFAULT_MAX_ATTACHMENT_SIZE}).
         *
         * @param bytes at least 1
         * @return this builder
         */
        public Builder maxAttachmentSize(long bytes) {
            this.maxAttachmentSize = bytes;
            return this;
        }

        /**
         * Sets the bound of all staged content ({@link #DEFAULT_MAX_STAGED_BYTES}).
         *
         * @param bytes at least 1
         * @return this builder
         */
        public Builder maxStagedBytes(long bytes) {
            this.maxStagedBytes = bytes;
            return this;
        }

        /**
         * Sets the bound of staged attachments ({@link #DEFAULT_MAX_STAGED_ATTACHMENTS}).
         *
         * @param attachments at least 1
         * @return this builder
         */
        public Builder maxStagedAttachments(int attachments) {
            this.maxStagedAttachments = attachments;
            return this;
        }

        /**
         * Sets how long after it was accepted an attachment is retried before it is failed
         * ({@link #DEFAULT_DEADLINE}).
         *
         * @param deadline a positive duration
         * @return this builder
         */
        public Builder deadline(Duration deadline) {
            this.deadline = deadline;
            return this;
        }

        /**
         * Sets the listener that hears each outcome.
         *
         * @param listener the listener
         * @return this builder
         */
        public Builder listener(DeferredUploadListener listener) {
            this.listener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Checks the settings and starts running this uploader's deferred uploads on this instance.
         *
         * @return the deferred uploads
         * @throws IllegalArgumentException naming a setting out of range, or when the journal runs deferred
         *         uploads of this uploader's name already
         */
        public DeferredUploads build() {
            if (maxAttachmentSize < 1 || maxStagedBytes < 1 || maxStagedAttachments < 1) {
                throw new IllegalArgumentException("DeferredUploads: maxAttachmentSize, maxStagedBytes and"
                        + " maxStagedAttachments must be at least 1");
            }
            if (deadline.isNegative() || deadline.isZero()) {
                throw new IllegalArgumentException("DeferredUploads.deadline must be a positive duration");
            }
            return new DeferredUploads(this);
        }
    }
}
