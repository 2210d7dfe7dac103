package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.jdbc.DeferredAttachment;

/**
 * Published (an application event) when a deferred attachment ends: stored, or failed with its reason. Once per
 * attachment, on the instance that recorded the outcome, after it is committed; on the thread that ran the upload, so
 * a listener that does more than a little should be {@code @Async} or transactional after commit. Changes when what the
 * application is told of a deferred attachment's end changes.
 *
 * @param attachment the attachment and its outcome
 */
public record DeferredUploadEvent(DeferredAttachment attachment) {
}
