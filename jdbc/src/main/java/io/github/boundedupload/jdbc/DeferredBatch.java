package io.github.boundedupload.jdbc;

import java.util.List;

/**
 * A batch {@link DeferredUploads} accepted: its id, to ask where its attachments stand, and the keys they will be
 * stored under, in input order. Changes when what a caller learns of an accepted deferred batch changes.
 *
 * @param id the batch's id
 * @param keys the keys, in input order
 */
public record DeferredBatch(String id, List<String> keys) {

    /**
     * A batch; {@code keys} is copied.
     *
     * @param id the batch's id
     * @param keys the keys, in input order
     */
    public DeferredBatch {
        keys = List.copyOf(keys);
    }
}
