package io.github.boundedupload.examples.bulkjob

import io.github.boundedupload.Attachment
import io.github.boundedupload.BatchResult
import io.github.boundedupload.ConcurrentAttachmentUploader
import io.github.boundedupload.kotlin.awaitUploadAll
import java.nio.file.Path
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.coroutineScope
import org.slf4j.LoggerFactory
import org.springframework.stereotype.Component

/**
 * The bulk job: every file, in batches of [batchSize], all batches submitted at once from coroutines. The uploader
 * bounds what runs (its own threads, `bounded-upload.max-concurrent-uploads`) and queues the rest, so the job
 * neither blocks a coroutine dispatcher's threads nor takes more than its share. Each batch is all-or-nothing;
 * cancelling the job cancels every batch, and what they stored is deleted again. Changes when how the job batches and
 * submits its files changes.
 */
@Component
class BulkJob(private val uploader: ConcurrentAttachmentUploader) {

    /** What a run of the job stored. */
    data class Report(val files: Int, val bytes: Long, val keys: List<String>)

    suspend fun upload(files: List<Path>, batchSize: Int = 200): Report = coroutineScope {
        require(batchSize > 0) { "batchSize must be positive, was $batchSize" }
        val batches: List<BatchResult> = files.chunked(batchSize)
            .map { chunk -> async { uploader.awaitUploadAll(chunk.map(Attachment::of)) } }
            .awaitAll()
        val stored = batches.flatMap { it.storedObjects() }
        log.info("bulk job stored {} files in {} batches", stored.size, batches.size)
        Report(stored.size, stored.sumOf { it.size() }, stored.map { it.key() })
    }

    private companion object {
        val log = LoggerFactory.getLogger(BulkJob::class.java)
    }
}
