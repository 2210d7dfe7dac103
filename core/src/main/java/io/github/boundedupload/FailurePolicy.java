package io.github.boundedupload;

/**
 * What a batch does when one of its attachments fails. Changes when a batch gets another way to answer a failed
 * attachment.
 */
public enum FailurePolicy {
    /**
     * The first failure stops the batch: attachments not yet started are cancelled, running ones are interrupted,
     * and every object already stored is deleted again. The batch then throws one {@link BatchFailedException}
     * that names every failed attachment (and any object that could not be deleted).
     */
    ALL_OR_NOTHING,
    /**
     * Every attachment runs to its own end; the {@link BatchResult} tells which are stored and which failed. Nothing
     * is thrown for failed attachments.
     */
    COLLECT
}
