package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.UploaderStats;
import java.time.Duration;
import java.util.List;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Drains the auto-configured uploader in Spring Boot's shutdown, as a {@link SmartLifecycle} phase: when the context
 * starts closing, the uploader takes no new batch (a new batch gets an {@code UploaderClosedException}), running
 * batches get {@code shutdown-grace-period} to finish, and what is left then ends as the failure policy promises
 * (cancelled; under all-or-nothing, what the batch stored deleted), within two {@code stop-timeout}s more. This is
 * the uploader's own {@code close()}, run in the lifecycle instead of as a destroy method, which Spring calls only
 * after every phase has stopped. Changes when the way the uploader is drained at shutdown changes.
 *
 * <p>The phase is the web server's graceful shutdown phase ({@code WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE}
 * in Spring Boot 3.5 and 4.1): the drain and the web server's graceful shutdown run side by side, within one
 * {@code spring.lifecycle.timeout-per-shutdown-phase}, so that a request waiting for its batch and the batch end
 * together; message listeners and schedulers, in the default phase, stop before. {@link DrainConfiguration} checks at
 * start-up that the drain fits in that timeout. The close runs on a thread of its own, because Spring starts the
 * timeout only once every bean of the phase has been asked to stop.
 *
 * <p>What works with the uploader stops with it ({@link Follower}): the upload journal takes no new task when the drain
 * starts (a deferred upload it would pick then is left for another instance, or for this one's successor), and is
 * closed once the uploader is.
 */
final class UploaderDrain implements SmartLifecycle {

    /** Spring Boot's {@code WebServerApplicationContext.GRACEFUL_SHUTDOWN_PHASE}, the same in 3.5 and 4.1. */
    static final int PHASE = SmartLifecycle.DEFAULT_PHASE - 1024;

    private static final Log LOG = LogFactory.getLog(UploaderDrain.class);

    /**
     * Something that stops with the uploader: paused when the drain starts, closed once the uploader is closed (it may
     * serve the uploader's last batches until then).
     */
    interface Follower {

        /** What the drain's log lines call it. */
        String name();

        /** Takes no new work; what runs goes on. */
        void pause();

        /** Stops, within {@link #closeTime()}. */
        void close();

        /** The longest {@link #close()} takes once the uploader is closed, counted in the drain's budget. */
        Duration closeTime();
    }

    private final ConcurrentAttachmentUploader uploader;
    private final List<Follower> followers;
    private volatile boolean running;

    UploaderDrain(ConcurrentAttachmentUploader uploader, List<Follower> followers) {
        this.uploader = uploader;
        this.followers = List.copyOf(followers);
    }

    /** The longest the drain takes: the uploader's close, then each follower's. */
    static Duration budget(UploaderConfig config, List<Follower> followers) {
        Duration drain = config.shutdownGracePeriod().plus(config.stopTimeout().multipliedBy(2));
        for (Follower follower : followers) {
            drain = drain.plus(follower.closeTime());
        }
        return drain;
    }

    @Override
    public void start() {
        running = true;
    }

    @Override
    public void stop() {
        running = false;
        drain();
    }

    @Override
    public void stop(Runnable callback) {
        running = false;
        Thread thread = new Thread(() -> {
            try {
                drain();
            } finally {
                callback.run();
            }
        }, "bounded-upload-" + uploader.name() + "-drain");
        thread.start();
    }

    private void drain() {
        followers.forEach(Follower::pause);
        try {
            drainUploader();
        } finally {
            for (Follower follower : followers) {
                long start = System.nanoTime();
                follower.close();
                LOG.info("bounded-upload '" + uploader.name() + "': " + follower.name() + " stopped in "
                        + Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms (at most "
                        + format(follower.closeTime()) + ")");
            }
        }
    }

    private void drainUploader() {
        UploaderStats stats = uploader.stats();
        if (stats.closed()) {
            return;
        }
        UploaderConfig config = uploader.config();
        long start = System.nanoTime();
        if (stats.activeBatches() > 0 || stats.pendingRollbacks() > 0) {
            LOG.info("bounded-upload '" + uploader.name() + "' drains: no new batch; " + stats.activeBatches()
                    + " running batches (and " + stats.pendingRollbacks() + " pending rollbacks) get up to "
                    + format(config.shutdownGracePeriod()) + " (shutdown-grace-period), then up to 2 x "
                    + format(config.stopTimeout()) + " (stop-timeout) to stop");
        }
        uploader.close();
        if (stats.activeBatches() > 0 || stats.pendingRollbacks() > 0) {
            LOG.info("bounded-upload '" + uploader.name() + "' drained in "
                    + Duration.ofNanos(System.nanoTime() - start).toMillis() + " ms");
        }
    }

    /** A duration as the properties write it: {@code 10s}, {@code 500ms}. */
    static String format(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? millis / 1000 + "s" : millis + "ms";
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }

    /**
     * Spring 7's switch: a closed uploader cannot start again, so a {@code context.stop()} (a pause, for a restart or
     * a checkpoint) leaves it alone, and only the context's close drains it. (Spring 6 has no such method and stops
     * every running lifecycle bean on {@code stop()}.)
     *
     * @return false
     */
    @SuppressWarnings("MissingOverride")
    public boolean isPauseable() {
        return false;
    }
}
