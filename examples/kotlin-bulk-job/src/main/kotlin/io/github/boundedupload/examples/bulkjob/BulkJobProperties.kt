package io.github.boundedupload.examples.bulkjob

import java.nio.file.Path
import org.springframework.boot.context.properties.ConfigurationProperties
import org.springframework.util.unit.DataSize

/** `bulk-job.*`: the job [JobRunner] runs at start-up. Changes when a setting of the job changes. */
@ConfigurationProperties("bulk-job")
data class BulkJobProperties(
    /** Whether to run the job once at start-up. */
    val runOnStart: Boolean = true,
    /** How many files the job uploads (generated once into [sourceDir]). */
    val files: Int = 600,
    /** The size of each file. */
    val fileSize: DataSize = DataSize.ofKilobytes(32),
    /** Where the generated files are kept. */
    val sourceDir: Path = Path.of("target", "bulk-job-files"),
)
