package io.github.boundedupload.kotlin

import io.github.boundedupload.Attachment
import io.github.boundedupload.BatchResult
import io.github.boundedupload.ConcurrentAttachmentUploader
import io.github.boundedupload.StoredObject
import io.github.boundedupload.UploadProgress
import io.github.boundedupload.UploaderConfig
import io.github.boundedupload.spi.FileUploader
import io.github.boundedupload.spi.UploadRequest
import java.time.Duration
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.Test

/**
 * Suspending uploads: the result without a blocked caller, cancellation of the coroutine cancelling the batch, and
 * source 004's shape, a bulk job of many uploads next to the rest of the application's work.
 */
class AwaitUploadAllTest {

    /** Stores in memory; uploads whose name starts with [held] wait until [release] (or an interrupt). */
    private class Storage : FileUploader {
        val objects = ConcurrentHashMap<String, ByteArray>()
        val entered = CountDownLatch(1)
        val release = CountDownLatch(1)

        @Volatile
        var held = "-"

        override fun upload(request: UploadRequest): StoredObject {
            if (request.fileName().startsWith(held)) {
                entered.countDown()
                release.await(1, TimeUnit.MINUTES) // throws InterruptedException when the batch is cancelled
            }
            val bytes = request.openStream().use { it.readAllBytes() }
            objects[request.key()] = bytes
            return StoredObject.builder(request.key(), bytes.size.toLong()).build()
        }

        override fun delete(key: String) {
            objects.remove(key)
        }
    }

    private val storage = Storage()

    private fun files(prefix: String, n: Int) =
        (0 until n).map { Attachment.of("$prefix-$it.txt", "$prefix $it".toByteArray()) }

    @Test
    fun `returns the batch's result without blocking the caller`() = runBlocking<Unit> {
        ConcurrentAttachmentUploader.create(storage).use { uploader ->
            val result: BatchResult = uploader.awaitUploadAll(files("photo", 3))
            assertThat(result.storedObjects()).hasSize(3)
            assertThat(storage.objects).hasSize(3)
        }
    }

    @Test
    fun `cancelling the coroutine cancels the batch and deletes what it stored`() = runBlocking<Unit> {
        storage.held = "photo-2"
        ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder().maxConcurrentUploadsPerBatch(3).build())
            .use { uploader ->
                val job = launch(Dispatchers.Default) { uploader.awaitUploadAll(files("photo", 3)) }
                withContext(Dispatchers.IO) { assertThat(storage.entered.await(30, TimeUnit.SECONDS)).isTrue() }
                await().atMost(Duration.ofSeconds(30)).until { storage.objects.size == 2 }

                job.cancelAndJoin()

                await().atMost(Duration.ofSeconds(30)).untilAsserted {
                    assertThat(storage.objects).`as`("what the cancelled batch stored").isEmpty()
                    assertThat(uploader.stats().activeBatches()).isZero()
                }
            }
    }

    @Test
    fun `a flow emits each attachment's steps and ends with the batch`() = runBlocking<Unit> {
        ConcurrentAttachmentUploader.create(storage).use { uploader ->
            val steps = uploader.uploadAllFlow(files("photo", 3)).toList()
            assertThat(steps.filter { it.kind() == UploadProgress.Kind.STORED }.map { it.index() })
                .containsExactlyInAnyOrder(0, 1, 2)
            assertThat(steps.filter { it.kind() == UploadProgress.Kind.STARTED }).hasSize(3)
        }
    }

    @Test
    fun `a bulk job of 2,000 uploads does not hold up the rest of the application`() = runBlocking<Unit> {
        // Source 004: a coroutine service starts a bulk job; requests keep coming. The bulk batch may take at most
        // 56 of the uploader's 64 permits, so a request's small batch runs next to it, on the uploader's threads.
        storage.held = "bulk"
        ConcurrentAttachmentUploader.create(storage, UploaderConfig.builder().maxConcurrentUploads(64)
            .maxConcurrentUploadsPerBatch(56).maxAttachmentsPerBatch(2_000).build()).use { uploader ->
            val bulk = async(Dispatchers.Default) { uploader.awaitUploadAll(files("bulk", 2_000)) }
            withContext(Dispatchers.IO) { assertThat(storage.entered.await(30, TimeUnit.SECONDS)).isTrue() }

            val request = uploader.awaitUploadAll(files("request", 2))

            assertThat(request.storedObjects()).hasSize(2)
            assertThat(bulk.isActive).`as`("the bulk job, still held, did not delay the request").isTrue()
            storage.release.countDown()
            assertThat(bulk.await().storedObjects()).hasSize(2_000)
        }
    }
}
