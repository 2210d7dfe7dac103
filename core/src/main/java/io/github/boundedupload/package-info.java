/**
 * Bounded, isolated, observable concurrent uploads.
 *
 * <p>Start at {@link io.github.boundedupload.ConcurrentAttachmentUploader}: it uploads a batch of
 * {@link io.github.boundedupload.Attachment}s through a {@link io.github.boundedupload.spi.FileUploader} (the storage)
 * under the bounds of an {@link io.github.boundedupload.UploaderConfig}, and returns a
 * {@link io.github.boundedupload.BatchResult} in input order.
 */
@NullMarked
package io.github.boundedupload;

import org.jspecify.annotations.NullMarked;
