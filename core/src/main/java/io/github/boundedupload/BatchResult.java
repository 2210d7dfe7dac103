package io.github.boundedupload;

import java.util.List;
import java.util.Objects;

/**
 * How every attachment of a batch ended, in the order of the input. Immutable.
 *
 * <pre>{@code
 * BatchResult result = uploader.uploadAll(attachments);
 * for (UploadResult r : result.results()) {          // same order as attachments
 *     r.storedObject().ifPresent(o -> save(r.attachment().fileName(), o.key()));
 * }
 * }</pre>
 */
public final class BatchResult {

    private final List<UploadResult> results;

    /**
     * A batch result.
     *
     * @param results one result per attachment, in input order
     */
    public BatchResult(List<UploadResult> results) {
        this.results = List.copyOf(Objects.requireNonNull(results, "results"));
        for (int i = 0; i < this.results.size(); i++) {
            if (this.results.get(i).index() != i) {
                throw new IllegalArgumentException("result " + i + " has index " + this.results.get(i).index());
            }
        }
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
