package io.github.boundedupload.examples.bulkjob

import java.time.Duration
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.withContext
import org.springframework.stereotype.Component

/**
 * The rest of the application: short blocking calls (a database query, a notification gateway) on the shared
 * `Dispatchers.IO`, as in source 004. Each call reports how long it took from when it was asked for, so waiting
 * for a free `Dispatchers.IO` thread shows. Changes when the other work, or how its waiting is measured, changes.
 */
@Component
class OtherWork {

    /** Runs [calls] blocking calls of [callTime] each, all asked for at once, and returns each one's latency. */
    suspend fun run(calls: Int, callTime: Duration): List<Duration> = coroutineScope {
        (1..calls).map {
            val asked = System.nanoTime()
            async {
                withContext(Dispatchers.IO) {
                    Thread.sleep(callTime.toMillis()) // the simulated blocking call
                }
                Duration.ofNanos(System.nanoTime() - asked)
            }
        }.awaitAll()
    }
}
