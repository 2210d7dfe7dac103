package io.github.boundedupload.examples.bulkjob

import io.github.boundedupload.ConcurrentAttachmentUploader
import io.github.boundedupload.StoredObject
import io.github.boundedupload.spi.UploadEvent
import io.github.boundedupload.spi.UploadListener
import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.Random
import java.util.concurrent.ConcurrentHashMap
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlin.io.path.isRegularFile
import kotlin.io.path.walk
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.io.TempDir
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.stereotype.Component

/** The Kotlin application, started as it runs, with the starter's local storage in a temporary directory. */
class BulkJobTest {

    @TempDir
    lateinit var dir: Path

    private var context: ConfigurableApplicationContext? = null

    @AfterEach
    fun close() {
        context?.close()
    }

    /** Records the threads uploads run on, and can hold uploads once some are stored. */
    @Component
    class Recorder : UploadListener {
        val threads: MutableSet<String> = ConcurrentHashMap.newKeySet()
        val stored = AtomicInteger()
        @Volatile var holdAfter = Int.MAX_VALUE
        val someStored = CountDownLatch(1)
        val release = CountDownLatch(1)

        override fun uploadStarted(upload: UploadEvent, queued: Duration) {
            threads.add(Thread.currentThread().name)
            if (stored.get() >= holdAfter) {
                try {
                    release.await(1, TimeUnit.MINUTES)
                } catch (e: InterruptedException) {
                    Thread.currentThread().interrupt()
                }
            }
        }

        override fun uploadSucceeded(upload: UploadEvent, stored: StoredObject, took: Duration) {
            if (this.stored.incrementAndGet() >= holdAfter) {
                someStored.countDown()
            }
        }
    }

    private fun start(): ConfigurableApplicationContext =
        SpringApplicationBuilder(BulkJobApplication::class.java, Recorder::class.java)
            // Arguments, not default properties: those would lose to application.yml.
            .run("--bulk-job.run-on-start=false", "--bounded-upload.local.root=${dir.resolve("uploads")}")
            .also { context = it }

    private fun sources(count: Int): List<Path> {
        val sources = Files.createDirectories(dir.resolve("sources"))
        val random = Random(7)
        return (1..count).map { i ->
            sources.resolve("n-$i.bin").also { Files.write(it, ByteArray(1000 + i).also(random::nextBytes)) }
        }
    }

    private fun storedFiles(): List<Path> = dir.resolve("uploads").walk().filter { it.isRegularFile() }
        .filter { !it.fileName.toString().startsWith(".") }.toList()

    @Test
    fun everyFileIsStoredByteForByteOnTheUploadersThreadsWhileOtherWorkGoesOn() {
        val app = start()
        val files = sources(450)
        val report = runBlocking {
            val job = async { app.getBean(BulkJob::class.java).upload(files, batchSize = 100) }
            val latencies = app.getBean(OtherWork::class.java).run(calls = 100, callTime = Duration.ofMillis(5))
            assertThat(latencies).hasSize(100)
            job.await()
        }

        assertThat(report.files).isEqualTo(450)
        assertThat(report.bytes).isEqualTo(files.sumOf { Files.size(it) })
        val root = dir.resolve("uploads")
        for ((i, key) in report.keys.withIndex()) {
            assertThat(key).endsWith("-n-${i + 1}.bin")
            assertThat(root.resolve(key)).hasSameBinaryContentAs(files[i])
        }
        assertThat(storedFiles()).hasSize(450)
        // Isolation: no upload ran on a coroutine dispatcher's thread (Dispatchers.IO's are DefaultDispatcher-worker-N).
        assertThat(app.getBean(Recorder::class.java).threads).isNotEmpty
            .allSatisfy { assertThat(it).startsWith("bounded-upload-bulk-job-") }
    }

    @Test
    fun cancellingTheJobCancelsItsBatchesAndDeletesWhatTheyStored() {
        val app = start()
        val recorder = app.getBean(Recorder::class.java)
        recorder.holdAfter = 30
        val files = sources(300)
        runBlocking {
            val job = launch(Dispatchers.Default) { app.getBean(BulkJob::class.java).upload(files, batchSize = 100) }
            assertThat(recorder.someStored.await(1, TimeUnit.MINUTES)).isTrue()
            job.cancel()
            recorder.release.countDown()
            job.join()
        }
        val uploader = app.getBean(ConcurrentAttachmentUploader::class.java)
        await().atMost(Duration.ofMinutes(1)).until { uploader.stats().activeBatches() == 0 }
        assertThat(recorder.stored.get()).isGreaterThanOrEqualTo(30)
        assertThat(storedFiles()).isEmpty()
    }
}
