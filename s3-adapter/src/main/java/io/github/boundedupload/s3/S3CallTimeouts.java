package io.github.boundedupload.s3;

import io.github.boundedupload.support.Threads;
import java.util.Optional;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import software.amazon.awssdk.core.client.builder.SdkClientBuilder;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;

/**
 * A scheduler for the SDK's API call timeouts that does not keep them once cancelled. The S3 storages give every
 * request an API call timeout (the upload's time left, 5 minutes by default); the SDK schedules it on the client's
 * scheduled executor when the call starts and cancels it when the call ends. The SDK's own executor
 * ({@code Executors.newScheduledThreadPool}) keeps a cancelled task queued until it would have fired: about 72 bytes
 * per request for 5 minutes, so 300,000 tasks on the heap at 1,000 uploads a second. A client the storage builds
 * (and one the Spring Boot starter builds) gets this scheduler; give it to a client of your own the same way, and
 * shut it down after closing the client (the SDK does not shut down a scheduler it was given):
 *
 * <pre>{@code
 * ScheduledExecutorService timeouts = S3CallTimeouts.scheduler();
 * S3Client s3 = S3Client.builder()
 *     .overrideConfiguration(o -> o.scheduledExecutorService(timeouts))
 *     .build();
 * // or, keeping what the builder has: S3CallTimeouts.giveTo(builder)
 * }</pre>
 *
 * Changes when the SDK stops keeping cancelled timeouts, or schedules them elsewhere.
 */
public final class S3CallTimeouts {

    /**
     * As many as the SDK's own executor: besides timeouts, a non-blocking client runs each retry's next attempt from
     * it, up to the hand-over to the HTTP client. They end when idle.
     */
    private static final int THREADS = 5;

    private S3CallTimeouts() {
    }

    /**
     * A new scheduled executor for {@code ClientOverrideConfiguration.Builder#scheduledExecutorService}: it removes a
     * cancelled task at once, its threads ({@code bounded-upload-s3-timeouts-N}, daemon) end after 10 idle seconds,
     * and shutting it down drops what is still queued (once its client is closed, nothing is left to time out).
     *
     * @return a new scheduler; shut it down after closing the client it was given to
     */
    public static ScheduledExecutorService scheduler() {
        ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(THREADS,
                Threads.platform("bounded-upload-s3-timeouts-", true));
        scheduler.setRemoveOnCancelPolicy(true);
        scheduler.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        scheduler.setKeepAliveTime(10, TimeUnit.SECONDS);
        scheduler.allowCoreThreadTimeOut(true);
        return scheduler;
    }

    /**
     * Gives a client builder a new {@link #scheduler()}, unless it has a scheduled executor already.
     *
     * @param builder the client builder (its other override settings are kept)
     * @return the scheduler given, to shut down after closing the client; empty if the builder had one
     */
    public static Optional<ScheduledExecutorService> giveTo(SdkClientBuilder<?, ?> builder) {
        ClientOverrideConfiguration override = builder.overrideConfiguration();
        if (override.scheduledExecutorService().isPresent()) {
            return Optional.empty();
        }
        ScheduledExecutorService scheduler = scheduler();
        builder.overrideConfiguration(override.toBuilder().scheduledExecutorService(scheduler).build());
        return Optional.of(scheduler);
    }
}
