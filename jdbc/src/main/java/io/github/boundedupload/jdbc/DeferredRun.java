package io.github.boundedupload.jdbc;

import static io.github.boundedupload.jdbc.internal.TaskHost.LOG;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.AttachmentContent;
import io.github.boundedupload.BatchFailedException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploadException;
import io.github.boundedupload.UploadResult;
import io.github.boundedupload.jdbc.internal.BatchRecords;
import io.github.boundedupload.jdbc.internal.DeferredRunTransaction;
import io.github.boundedupload.jdbc.internal.DeferredRuns;
import io.github.boundedupload.jdbc.internal.DeferredStore;
import io.github.boundedupload.jdbc.internal.RunFence;
import io.github.boundedupload.jdbc.internal.TaskHost;
import io.github.boundedupload.support.SafeText;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * One run of a staged batch, on whichever instance its task runs: the attachments still pending are uploaded through
 * the uploader (one after another for a batch submitted in order), each outcome is recorded once and heard once by the
 * {@link DeferredUploadListener}, and a batch past its deadline ends failed. Changes when what a deferred upload does
 * changes; when it runs is {@link DeferredRuns}'.
 */
final class DeferredRun implements DeferredRuns.Runner {

    private final TaskHost host;
    private final BatchRecords records;
    private final ConcurrentAttachmentUploader uploader;
    private final Duration deadline;
    private final DeferredUploadListener listener;
    private final AtomicLong stored = new AtomicLong();
    private final AtomicLong failed = new AtomicLong();

    DeferredRun(TaskHost host, BatchRecords records, ConcurrentAttachmentUploader uploader, Duration deadline,
            DeferredUploadListener listener) {
        this.host = host;
        this.records = records;
        this.uploader = uploader;
        this.deadline = deadline;
        this.listener = listener;
    }

    /** Attachments this instance recorded stored. */
    long stored() {
        return stored.get();
    }

    /** Attachments this instance recorded failed. */
    long failed() {
        return failed.get();
    }

    /**
     * Uploads what is pending of a batch; throws to be tried again later. A run whose task was taken over (this
     * instance was paused or cut off, and another runs the batch now) uploads nothing and fails nothing. What its
     * uploads store is the journal's to judge: an attachment is recorded stored only when its journal batch was kept,
     * which is true whoever's run it was, since it is the same key and the same bytes.
     */
    @Override
    public void run(String batchId, RunFence fence) {
        if (!fence.holds()) {
            fence.notDone("did not upload deferred batch " + batchId);
            return;
        }
        List<DeferredStore.Row> pending = host.inOwnTransaction("read deferred batch " + batchId,
                c -> DeferredStore.rows(c, batchId, true));
        if (pending.isEmpty()) {
            return;
        }
        try {
            if (pending.get(0).ordered()) {
                for (DeferredStore.Row row : pending) {
                    upload(List.of(row));
                }
            } else {
                upload(pending);
            }
        } catch (RuntimeException e) {
            if (System.currentTimeMillis() < pending.get(0).deadlineAt()) {
                throw e;
            }
            String reason = "not stored before its deadline (" + deadline + " after it was accepted); last failure: "
                    + (e instanceof UploadException ? e.getMessage() : SafeText.describe(e));
            for (DeferredStore.Row row : host.inOwnTransaction("read deferred batch " + batchId,
                    c -> DeferredStore.rows(c, batchId, true))) {
                if (!fail(row, reason, fence)) {
                    fence.notDone("did not record deferred batch " + batchId + " failed at its deadline");
                    return;
                }
            }
        }
    }

    private void upload(List<DeferredStore.Row> rows) {
        List<Attachment> attachments = new ArrayList<>(rows.size());
        for (DeferredStore.Row row : rows) {
            Attachment.Builder attachment = Attachment.builder(row.fileName(),
                    AttachmentContent.ofBytes(Objects.requireNonNull(row.content(), "staged content")))
                    .key(row.key()).contentType(row.contentType());
            DeferredStore.decode(row.metadata()).forEach(attachment::metadata);
            attachments.add(attachment.build());
        }
        // Kept and recorded stored in one transaction: the keys are free again exactly when the attachments are
        // recorded stored (DeferredRunTransaction).
        List<DeferredStore.Row> recorded = new ArrayList<>();
        List<UploadResult> notStored = new ArrayList<>();
        List<String> kept = new ArrayList<>();
        try {
            host.runInOwnTransaction("upload deferred batch " + rows.get(0).batchId(), c -> {
                BatchResult result;
                try {
                    result = DeferredRunTransaction.run(c, kept, () -> uploader.uploadAll(attachments));
                } catch (BatchFailedException e) {
                    result = e.result();
                }
                long now = System.currentTimeMillis();
                for (UploadResult upload : result.results()) {
                    DeferredStore.Row row = rows.get(upload.index());
                    if (!upload.isStored()) {
                        notStored.add(upload);
                    } else if (DeferredStore.finish(c, row.batchId(), row.index(),
                            DeferredAttachment.State.STORED.name(), null, now) == 1) {
                        recorded.add(row);
                    } // else recorded by another try already: heard once
                }
            });
        } catch (RuntimeException e) {
            records.keptButRolledBack(kept);
            throw e;
        }
        for (DeferredStore.Row row : recorded) {
            heard(row, DeferredAttachment.State.STORED, null);
        }
        if (!notStored.isEmpty()) {
            Throwable firstFailure = notStored.get(0).failure().orElse(null);
            throw new UploadException(notStored.size() + " of " + rows.size() + " deferred attachments were not"
                    + " stored" + (firstFailure == null ? "" : ": " + SafeText.describe(firstFailure)),
                    firstFailure);
        }
    }

    /**
     * Records an attachment failed once, and tells the listener; only while the run still owns its task (checked in
     * the same transaction): false when it does not.
     */
    private boolean fail(DeferredStore.Row row, String reason, RunFence fence) {
        DeferredAttachment.State state = DeferredAttachment.State.FAILED;
        int ended = host.inOwnTransaction("record a deferred attachment " + state,
                c -> !fence.holds(c) ? -1 : DeferredStore.finish(c, row.batchId(), row.index(), state.name(), reason,
                        System.currentTimeMillis()));
        if (ended == -1) {
            return false;
        }
        if (ended == 1) {
            heard(row, state, reason);
        } // else recorded by another try already: heard once
        return true;
    }

    /** Tells the listener an outcome this run recorded (once, after its commit). */
    private void heard(DeferredStore.Row row, DeferredAttachment.State state, @Nullable String reason) {
        DeferredAttachment attachment = view(row, state, reason);
        try {
            if (state == DeferredAttachment.State.STORED) {
                stored.incrementAndGet();
                listener.stored(attachment);
            } else {
                failed.incrementAndGet();
                LOG.error("upload journal: deferred file {} {} of batch {} (key {}) failed: {}",
                        row.index() + 1, SafeText.quote(row.fileName()), row.batchId(), SafeText.quote(row.key()),
                        reason);
                listener.failed(attachment);
            }
        } catch (RuntimeException e) {
            LOG.warn("upload journal: a DeferredUploadListener threw: {}", SafeText.describe(e));
        }
    }

    static DeferredAttachment view(DeferredStore.Row row, DeferredAttachment.State state,
            @Nullable String reason) {
        return new DeferredAttachment(row.batchId(), row.index(), row.key(), row.fileName(), row.size(), state,
                reason);
    }
}
