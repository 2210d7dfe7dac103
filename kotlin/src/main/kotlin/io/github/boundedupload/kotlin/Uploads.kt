/**
 * Kotlin coroutines for bounded-upload. Changes when the way Kotlin code awaits or collects a batch changes.
 *
 * ```kotlin
 * val result: BatchResult = uploader.awaitUploadAll(attachments)   // suspends; never blocks the caller's thread
 * ```
 */
package io.github.boundedupload.kotlin

import io.github.boundedupload.Attachment
import io.github.boundedupload.BatchResult
import io.github.boundedupload.ConcurrentAttachmentUploader
import io.github.boundedupload.UploadProgress
import java.util.concurrent.CompletionException
import kotlinx.coroutines.channels.Channel
import kotlinx.coroutines.channels.awaitClose
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.buffer
import kotlinx.coroutines.flow.callbackFlow
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

/**
 * Uploads a batch when collected and emits each attachment's steps as they happen (started, sent, stored, failed,
 * skipped, deleted again); the flow ends when the batch does, or throws what [awaitUploadAll] throws. Cancelling the
 * collection cancels the batch. At most about fifteen steps per attachment are buffered for a slow collector.
 *
 * @param attachments the batch
 * @return the steps
 */
fun ConcurrentAttachmentUploader.uploadAllFlow(attachments: List<Attachment>): Flow<UploadProgress> = callbackFlow {
    val batch = uploadAllAsync(attachments, UploadProgress.listener { step -> trySend(step) })
    batch.whenComplete { _, failure ->
        if (failure == null) {
            close()
        } else {
            close(if (failure is CompletionException && failure.cause != null) failure.cause else failure)
        }
    }
    awaitClose { batch.cancel(true) }
}.buffer(Channel.UNLIMITED) // bounded in practice: about fifteen steps per attachment, and batches are bounded
