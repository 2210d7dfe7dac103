package io.github.boundedupload.internal;

import io.github.boundedupload.FailurePolicy;

/**
 * What a {@link FailurePolicy} means for a batch, in one place instead of a branch at each step. Changes when a policy
 * is added or means something else.
 */
enum Policy {

    /** The first failure stops the batch and deletes what it stored; a batch that is not all stored fails. */
    ALL_OR_NOTHING(true),
    /** Every attachment runs to its own end; the batch reports each one. */
    COLLECT(false);

    private final boolean allOrNothing;

    Policy(boolean allOrNothing) {
        this.allOrNothing = allOrNothing;
    }

    static Policy of(FailurePolicy policy) {
        return policy == FailurePolicy.ALL_OR_NOTHING ? ALL_OR_NOTHING : COLLECT;
    }

    /** Whether an attachment that failed on its own stops (and rolls back) the rest of its batch. */
    boolean stopsOnFailure() {
        return allOrNothing;
    }

    /**
     * Whether a batch stopped from outside (its deadline passed, the uploader closed) deletes what it stored. A batch
     * cancelled by its caller always does: the caller no longer wants any of it.
     */
    boolean rollsBackWhenStopped() {
        return allOrNothing;
    }

    /** Whether the batch's outcome is an exception rather than a result, with {@code stored} of {@code size} stored. */
    boolean fails(int stored, int size) {
        return allOrNothing && stored < size;
    }
}
