package io.github.boundedupload.micrometer;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderSaturatedException;
import io.github.boundedupload.UploaderStats;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.github.boundedupload.spi.UploaderEvent;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.jvm.ExecutorServiceMetrics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * Publishes what an uploader does as Micrometer meters, every one tagged with {@code uploader} (its name). Changes when
 * a meter, its tags or what it measures change. The meters:
 *
 * <table>
 * <caption>Meters</caption>
 * <tr><th>name</th><th>type</th><th>what</th></tr>
 * <tr><td>{@value #WAIT}</td><td>timer</td><td>time each upload waited in the queue before it started</td></tr>
 * <tr><td>{@value #BYTES}</td><td>counter</td><td>bytes stored</td></tr>
 * <tr><td>{@value #REJECTED}</td><td>counter</td><td>uploads refused because the uploader was saturated</td></tr>
 * <tr><td>{@value #SKIPPED}</td><td>counter</td><td>uploads that never started; tag {@code reason}</td></tr>
 * <tr><td>{@value #ROLLBACKS}</td><td>counter</td><td>stored objects deleted again; tag {@code outcome}
 * ({@code deleted}, or {@code failed} when the object is still stored)</td></tr>
 * <tr><td>{@value #ROLLBACKS_RETRIED}</td><td>counter</td><td>tries of deletes that undo failed batches that failed
 * and are tried again</td></tr>
 * <tr><td>{@value #ROLLBACKS_ABANDONED}</td><td>counter</td><td>deletes given up (rollback deadline passed, or the
 * uploader closed): what they were to delete may still be stored</td></tr>
 * <tr><td>{@value #ROLLBACKS_PENDING}</td><td>gauge</td><td>deletes that undo failed batches, not yet confirmed by
 * the storage</td></tr>
 * <tr><td>{@value #STUCK}</td><td>gauge</td><td>calls to the storage that did not stop within the stop timeout after
 * they were cancelled and have not returned</td></tr>
 * <tr><td>{@value #LIMIT}</td><td>gauge</td><td>uploads that may be in flight now: what an adaptive concurrency
 * limit allows, or {@code maxConcurrentUploads}</td></tr>
 * <tr><td>{@value #IN_FLIGHT}</td><td>gauge</td><td>uploads in flight</td></tr>
 * <tr><td>{@value #QUEUED}</td><td>gauge</td><td>uploads queued (admitted, not started)</td></tr>
 * <tr><td>{@value #IN_FLIGHT_BYTES}</td><td>gauge</td><td>bytes counted against the bytes-in-flight bound</td></tr>
 * <tr><td>{@value #IN_FLIGHT_BATCHES}</td><td>gauge</td><td>batches running</td></tr>
 * <tr><td>{@code executor.*}</td><td>various</td><td>the uploader's own thread pool (Micrometer's
 * {@link ExecutorServiceMetrics}, tag {@code name=bounded-upload-<uploader>})</td></tr>
 * </table>
 *
 * The timers of uploads and batches ({@code bounded.upload}, {@code bounded.upload.batch}) are their observations'
 * ({@link ObservationUploadListener}), made by Micrometer's {@code DefaultMeterObservationHandler}: one instrumentation
 * for the timer and the span.
 *
 * <pre>{@code
 * UploaderConfig.builder().listener(new MicrometerUploadListener(meterRegistry))
 *         .listener(new ObservationUploadListener(observationRegistry)).build();
 * }</pre>
 */
public final class MicrometerUploadListener implements UploadListener {

    /** Timer of the time each upload waited in the queue. */
    public static final String WAIT = "bounded.upload.wait";
    /** Counter of bytes stored. */
    public static final String BYTES = "bounded.upload.bytes";
    /** Counter of uploads refused because the uploader was saturated. */
    public static final String REJECTED = "bounded.upload.rejected";
    /** Counter of uploads that never started. */
    public static final String SKIPPED = "bounded.upload.skipped";
    /** Counter of stored objects deleted again. */
    public static final String ROLLBACKS = "bounded.upload.rollbacks";
    /** Counter of failed tries of rollback deletes that are tried again. */
    public static final String ROLLBACKS_RETRIED = "bounded.upload.rollbacks.retried";
    /** Counter of rollback deletes given up. */
    public static final String ROLLBACKS_ABANDONED = "bounded.upload.rollbacks.abandoned";
    /** Gauge of rollback deletes not yet confirmed. */
    public static final String ROLLBACKS_PENDING = "bounded.upload.rollbacks.pending";
    /** Gauge of stuck calls to the storage. */
    public static final String STUCK = "bounded.upload.stuck";
    /** Gauge of the uploads that may be in flight now. */
    public static final String LIMIT = "bounded.upload.limit";
    /** Gauge of uploads in flight. */
    public static final String IN_FLIGHT = "bounded.upload.in.flight";
    /** Gauge of uploads queued (admitted, not started). */
    public static final String QUEUED = "bounded.upload.queued";
    /** Gauge of bytes in flight. */
    public static final String IN_FLIGHT_BYTES = "bounded.upload.in.flight.bytes";
    /** Gauge of batches running. */
    public static final String IN_FLIGHT_BATCHES = "bounded.upload.in.flight.batches";

    private final MeterRegistry registry;
    private final Tags extraTags;
    private final Map<String, List<Meter>> gaugesByUploader = new ConcurrentHashMap<>();

    /**
     * A listener that registers its meters in a registry.
     *
     * @param registry the registry
     */
    public MicrometerUploadListener(MeterRegistry registry) {
        this(registry, Tags.empty());
    }

    /**
     * A listener that registers its meters in a registry, with tags added to every meter.
     *
     * @param registry the registry
     * @param extraTags tags for every meter
     */
    public MicrometerUploadListener(MeterRegistry registry, Iterable<Tag> extraTags) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.extraTags = Tags.of(extraTags);
    }

    private Tags tags(String uploader) {
        return extraTags.and("uploader", uploader);
    }

    @Override
    public void uploaderCreated(UploaderEvent uploader, Executor executor) {
        Tags tags = tags(uploader.uploaderName());
        List<Meter> meters = new ArrayList<>();
        meters.add(gauge(IN_FLIGHT, uploader, UploaderStats::inFlightUploads, tags, null,
                "Uploads in flight"));
        meters.add(gauge(QUEUED, uploader, UploaderStats::queuedUploads, tags, null,
                "Uploads admitted and not yet started"));
        meters.add(gauge(IN_FLIGHT_BYTES, uploader, UploaderStats::bytesInFlight, tags, "bytes",
                "Bytes counted against the bytes-in-flight bound"));
        meters.add(gauge(IN_FLIGHT_BATCHES, uploader, UploaderStats::activeBatches, tags, null,
                "Batches admitted and not yet finished"));
        meters.add(gauge(ROLLBACKS_PENDING, uploader, UploaderStats::pendingRollbacks, tags, null,
                "Deletes that undo failed batches, not yet confirmed by the storage"));
        int max = uploader.maxConcurrentUploads();
        meters.add(gauge(LIMIT, uploader, s -> s.concurrencyLimit() == 0 ? max : s.concurrencyLimit(), tags, null,
                "Uploads that may be in flight now: what an adaptive concurrency limit allows, or the maximum"));
        meters.add(gauge(STUCK, uploader, UploaderStats::stuckUploads, tags, null,
                "Calls to the storage that did not stop within the stop timeout after they were cancelled"));
        gaugesByUploader.put(uploader.uploaderName(), meters);
        String name = uploader.uploaderName();
        rejected(name);
        bytes(name);
        rollbacks(name, "deleted");
        rollbacks(name, "failed");
        rollbacksRetried(name);
        rollbacksAbandoned(name);
        if (uploader.ownExecutor() && executor instanceof ExecutorService) {
            new ExecutorServiceMetrics((ExecutorService) executor, executorName(uploader), extraTags)
                    .bindTo(registry);
        }
    }

    private static String executorName(UploaderEvent uploader) {
        return "bounded-upload-" + uploader.uploaderName();
    }

    private Meter gauge(String name, UploaderEvent uploader,
            ToDoubleFunction<UploaderStats> value, Tags tags, @Nullable String unit, String description) {
        return Gauge.builder(name, uploader, u -> value.applyAsDouble(u.stats()))
                .tags(tags).baseUnit(unit).description(description).register(registry);
    }

    @Override
    public void uploaderClosed(UploaderEvent uploader) {
        List<Meter> meters = gaugesByUploader.remove(uploader.uploaderName());
        if (meters != null) {
            meters.forEach(registry::remove);
        }
        // The closed pool's meters would report a terminated pool forever.
        String executorName = executorName(uploader);
        registry.getMeters().stream()
                .filter(m -> m.getId().getName().startsWith("executor")
                        && executorName.equals(m.getId().getTag("name")))
                .forEach(registry::remove);
    }

    @Override
    public void batchRejected(BatchEvent batch, UploaderSaturatedException exception) {
        rejected(batch.uploaderName()).increment(batch.size());
    }

    @Override
    public void uploadStarted(UploadEvent upload, Duration queued) {
        Timer.builder(WAIT).tags(tags(upload.batch().uploaderName()))
                .description("Time uploads waited in the queue before they started")
                .register(registry).record(queued);
    }

    @Override
    public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
        bytes(upload.batch().uploaderName()).increment(stored.size());
    }

    @Override
    public void uploadSkipped(UploadEvent upload, Throwable reason) {
        Counter.builder(SKIPPED).tags(tags(upload.batch().uploaderName()))
                .tag("reason", reason.getClass().getSimpleName())
                .description("Uploads that never started because their batch stopped or timed out first")
                .register(registry).increment();
    }

    @Override
    public void uploadRolledBack(UploadEvent upload, StoredObject stored, @Nullable Throwable failure) {
        rollbacks(upload.batch().uploaderName(), failure == null ? "deleted" : "failed").increment();
    }

    @Override
    public void rollbackRetried(UploadEvent upload, Throwable failure, Duration retryIn) {
        rollbacksRetried(upload.batch().uploaderName()).increment();
    }

    @Override
    public void rollbackAbandoned(UploadEvent upload, Throwable failure) {
        rollbacksAbandoned(upload.batch().uploaderName()).increment();
    }

    // The counters, registered when the uploader is created too, so that they show 0 before anything happens.

    private Counter rejected(String uploader) {
        return Counter.builder(REJECTED).tags(tags(uploader))
                .description("Uploads refused because the uploader was saturated").register(registry);
    }

    private Counter bytes(String uploader) {
        return Counter.builder(BYTES).tags(tags(uploader)).baseUnit("bytes").description("Bytes stored")
                .register(registry);
    }

    private Counter rollbacks(String uploader, String outcome) {
        return Counter.builder(ROLLBACKS).tags(tags(uploader)).tag("outcome", outcome)
                .description("Stored objects deleted again because their batch failed or was cancelled")
                .register(registry);
    }

    private Counter rollbacksRetried(String uploader) {
        return Counter.builder(ROLLBACKS_RETRIED).tags(tags(uploader))
                .description("Failed tries of deletes that undo failed batches, tried again").register(registry);
    }

    private Counter rollbacksAbandoned(String uploader) {
        return Counter.builder(ROLLBACKS_ABANDONED).tags(tags(uploader))
                .description("Deletes that undo failed batches, given up: what they were to delete may still be stored")
                .register(registry);
    }
}
