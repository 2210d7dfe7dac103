package io.github.boundedupload.jdbc;

import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One attachment handed to {@link DeferredUploads}, and where it stands. Changes when what is recorded of a deferred
 * attachment changes.
 *
 * @param batchId the deferred batch
 * @param index its position in the batch
 * @param key the key it is stored under (known when it was accepted)
 * @param fileName its file name
 * @param size its size in bytes
 * @param state where it stands
 * @param failureReason why it failed, for {@link State#FAILED}; null otherwise
 */
public record DeferredAttachment(String batchId, int index, String key, String fileName, long size, State state,
        @Nullable String failureReason) {

    /** Where a deferred attachment stands. */
    public enum State {
        /** Accepted and staged; not stored yet. */
        PENDING,
        /** Stored under its key: the storage confirmed it. */
        STORED,
        /** Not stored, for good: its deadline passed (see {@link #failure()}). */
        FAILED
    }

    /**
     * Why it failed.
     *
     * @return the reason, for {@link State#FAILED}
     */
    public Optional<String> failure() {
        return Optional.ofNullable(failureReason);
    }
}
