package io.github.boundedupload;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * How every attachment of a batch ended, in the order of the input. Immutable. Changes when what a finished batch
 * reports changes.
 *
 * <p>STORED means stored and kept; every other status means that nothing of the attachment is stored once the batch's
 * background work has completed ({@link #settled()}), and what the uploader gave up on is reported.
 *
 * <pre>{@code
 * BatchResult result = uploader.uploadAll(attachments);
 * for (UploadResult r : result.results()) {          // same order as attachments
 *     if (r.isStored()) {
 *         save(r.attachment().fileName(), r.key());
 *     }
 * }
 * result.settled().thenAccept(done -> ...);          // once deletes still running in the background are over
 * }</pre>
 */
public final class BatchResult {

    private final List<UploadResult> results;
    private final CompletionStage<BatchResult> settled;

    /**
     * A batch result with no background work left: {@link #settled()} is this result.
     *
     * @param results one result per attachment, in input order
     */
    public BatchResult(List<UploadResult> results) {
        this.results = copy(results);
        this.settled = CompletableFuture.completedStage(this);
    }

    /**
     * A batch result whose background work (deletes being retried, calls that did not stop) may still run.
     *
     * @param results one result per attachment, in input order
     * @param settled completes with the results once that work is over
     */
    public BatchResult(List<UploadResult> results, CompletionStage<BatchResult> settled) {
        this.results = copy(results);
        this.settled = Objects.requireNonNull(settled, "settled");
    }

    private static List<UploadResult> copy(List<UploadResult> results) {
        List<UploadResult> copy = List.copyOf(Objects.requireNonNull(results, "results"));
        for (int i = 0; i < copy.size(); i++) {
            if (copy.get(i).index() != i) {
                throw new IllegalArgumentException("result " + i + " has index " + copy.get(i).index());
            }
        }
        return copy;
    }

    /**
     * Completes once nothing of the batch runs in the background any more (deletes of {@link UploadResult.Status#DELETING}
     * attachments confirmed or given up, calls that got stuck returned, or the uploader closed), with the results as
     * they ended: a {@code DELETING} attachment is then {@code DELETED}, {@code FAILED}, {@code CANCELLED} or
     * {@code POSSIBLY_STORED}; every other status is as reported here. Completed already when nothing was left to do.
     * Never completes exceptionally. Dependent stages run on the uploader's threads unless given an executor.
     *
     * @return the settled results
     */
    public CompletionStage<BatchResult> settled() {
        return settled;
    }

    /**
     * One result per attachment, in input order.
     *
     * @return an unmodifiable list
     */
    public List<UploadResult> results() {
        return results;
    }

    /**
     * The number of attachments in the batch.
     *
     * @return the size
     */
    public int size() {
        return results.size();
    }

    /**
     * Whether every attachment is stored. An empty batch counts as all stored.
     *
     * @return {@code true} when every result is {@link UploadResult.Status#STORED}
     */
    public boolean allStored() {
        return results.stream().allMatch(UploadResult::isStored);
    }

    /**
     * The stored objects, in input order, leaving out attachments that are not stored.
     *
     * @return an unmodifiable list
     */
    public List<StoredObject> storedObjects() {
        return results.stream().filter(UploadResult::isStored)
                .map(r -> r.storedObject().orElseThrow()).toList();
    }

    /**
     * The attachments that are not stored, in input order.
     *
     * @return an unmodifiable list
     */
    public List<UploadResult> notStored() {
        return results.stream().filter(r -> !r.isStored()).toList();
    }

    @Override
    public String toString() {
        return "BatchResult" + results;
    }
}
