package io.github.boundedupload.examples.bulkjob

import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.boot.context.properties.ConfigurationPropertiesScan
import org.springframework.boot.runApplication

/**
 * Source 004's shape: a service that sends thousands of notifications a day runs a bulk job of many blocking calls
 * from coroutines. On the shared `Dispatchers.IO` such a job starved every other I/O user of the application for
 * minutes. Here the job's uploads run on the uploader's own bounded threads, so the rest of the application keeps
 * its `Dispatchers.IO` (see [BulkJob] and [OtherWork]). Changes when how Spring Boot starts the bulk-job example
 * changes.
 *
 * `./mvnw -pl examples/kotlin-bulk-job -am spring-boot:run` uploads 600 generated files to `target/uploads` while
 * it keeps serving other blocking work, and prints both sides' figures.
 */
@SpringBootApplication(proxyBeanMethods = false)
@ConfigurationPropertiesScan
class BulkJobApplication

fun main(args: Array<String>) {
    runApplication<BulkJobApplication>(*args)
}
