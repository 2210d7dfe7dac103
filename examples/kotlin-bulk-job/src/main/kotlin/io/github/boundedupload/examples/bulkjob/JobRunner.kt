package io.github.boundedupload.examples.bulkjob

import java.nio.file.Files
import java.nio.file.Path
import java.time.Duration
import java.util.Random
import kotlinx.coroutines.async
import kotlinx.coroutines.runBlocking
import org.slf4j.LoggerFactory
import org.springframework.boot.ApplicationArguments
import org.springframework.boot.ApplicationRunner
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty
import org.springframework.stereotype.Component

/**
 * Runs the job once at start-up, next to a stream of other work, and prints both sides' figures. Off with
 * `bulk-job.run-on-start=false` (the tests drive [BulkJob] themselves). Changes when what runs at start-up, or the
 * figures it prints, changes.
 */
@Component
@ConditionalOnProperty(name = ["bulk-job.run-on-start"], havingValue = "true", matchIfMissing = true)
class JobRunner(
    private val job: BulkJob,
    private val otherWork: OtherWork,
    private val properties: BulkJobProperties,
) : ApplicationRunner {

    override fun run(args: ApplicationArguments) {
        val sources = generate(properties.sourceDir, properties.files, properties.fileSize.toBytes().toInt())
        runBlocking {
            val started = System.nanoTime()
            val uploads = async { job.upload(sources) }
            val latencies = otherWork.run(calls = 300, callTime = Duration.ofMillis(20))
            val report = uploads.await()
            val took = Duration.ofNanos(System.nanoTime() - started)
            val sorted = latencies.sorted()
            log.info(
                "bulk job: {} files ({} KB) stored in {} ms; meanwhile 300 other blocking calls of 20 ms on " +
                    "Dispatchers.IO: median {} ms, slowest {} ms",
                report.files, report.bytes / 1024, took.toMillis(), sorted[sorted.size / 2].toMillis(),
                sorted.last().toMillis(),
            )
        }
    }

    private companion object {
        val log = LoggerFactory.getLogger(JobRunner::class.java)

        /** The job's input: [count] files of [size] random bytes (made once, reused by later runs). */
        fun generate(dir: Path, count: Int, size: Int): List<Path> {
            Files.createDirectories(dir)
            val random = Random(4)
            return (1..count).map { i ->
                val file = dir.resolve("notification-%05d.bin".format(i))
                if (!Files.exists(file) || Files.size(file) != size.toLong()) {
                    Files.write(file, ByteArray(size).also(random::nextBytes))
                }
                file
            }
        }
    }
}
