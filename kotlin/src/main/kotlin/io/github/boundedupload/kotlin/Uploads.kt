/**
 * Kotlin coroutines for bounded-upload.
 *
 * ```kotlin
 * val result: BatchResult = uploader.awaitUploadAll(attachments)   // suspends; never blocks the caller's thread
 * ```
 */
package io.github.boundedupload.kotlin

import io.github.boundedupload.Attachment
import io.github.boundedupload.BatchResult
import io.github.boundedupload.ConcurrentAttachmentUploader
import kotlinx.coroutines.future.await

/**
 * Uploads a batch and suspends until it ends, without holding the calling thread: the uploads run on the uploader's
 * own bounded threads (or permits, for a non-blocking storage), never on the coroutine's dispatcher. Cancelling the
 * coroutine cancels the batch: uploads not started are dropped, running ones stopped, and what it stored is deleted.
 *
 * @param attachments the batch; checked before anything starts
 * @return how each attachment ended, in input order
 * @throws io.github.boundedupload.InvalidAttachmentException when an attachment is invalid; nothing started
 * @throws io.github.boundedupload.UploaderSaturatedException when the uploader cannot take the batch
 * @throws io.github.boundedupload.BatchFailedException under all-or-nothing, when an attachment failed
 */
suspend fun ConcurrentAttachmentUploader.awaitUploadAll(attachments: List<Attachment>): BatchResult =
    // await() cancels the future when the coroutine is cancelled, and cancelling the future cancels the batch.
    uploadAllAsync(attachments).await()
