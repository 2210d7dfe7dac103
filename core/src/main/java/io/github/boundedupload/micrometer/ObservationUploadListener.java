package io.github.boundedupload.micrometer;

import org.jspecify.annotations.Nullable;
import java.util.concurrent.CancellationException;
import io.github.boundedupload.UploaderClosedException;
import io.github.boundedupload.UploadTimeoutException;
import io.github.boundedupload.BatchResult;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.UploaderSaturatedException;
import io.github.boundedupload.spi.BatchEvent;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * One Micrometer {@link Observation} per batch and per upload, named and tagged by an {@link UploadObservationConvention}
 * and a {@link BatchObservationConvention} ({@link DefaultUploadObservationConvention} and
 * {@link DefaultBatchObservationConvention} unless given others): from each, Micrometer's handlers make the timer
 * ({@code bounded.upload}, {@code bounded.upload.batch}) and, with tracing, the span: a span per batch under the span of
 * the request that submitted it, and a span per upload under its batch, whichever thread runs it. An upload's outcome
 * is {@code success}, {@code failure}, {@code timeout} or {@code cancelled}; a batch's {@code success},
 * {@code partial}, {@code failure} or {@code rejected}. Changes when what is observed, or when, changes.
 *
 * <pre>{@code
 * ObservationRegistry observations = ObservationRegistry.create();   // Spring Boot has one
 * observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meterRegistry));
 * UploaderConfig.builder().listener(new ObservationUploadListener(observations)).build();
 * }</pre>
 */
public final class ObservationUploadListener implements UploadListener {

    private static final UploadObservationConvention UPLOADS = new DefaultUploadObservationConvention();
    private static final BatchObservationConvention BATCHES = new DefaultBatchObservationConvention();

    private final ObservationRegistry registry;
    private final @Nullable UploadObservationConvention uploads;
    private final @Nullable BatchObservationConvention batches;
    /** Running batches and uploads: each is removed when it ends, and every batch ends. */
    private final Map<String, Observation> running = new ConcurrentHashMap<>();

    /**
     * A listener that observes into a registry with the default conventions.
     *
     * @param registry the registry, such as Spring Boot's {@code ObservationRegistry} bean
     */
    public ObservationUploadListener(ObservationRegistry registry) {
        this(registry, null, null);
    }

    /**
     * A listener that observes into a registry with conventions of the application's.
     *
     * @param registry the registry
     * @param uploads the convention of uploads, or null for the default
     * @param batches the convention of batches, or null for the default
     */
    public ObservationUploadListener(ObservationRegistry registry, @Nullable UploadObservationConvention uploads,
            @Nullable BatchObservationConvention batches) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.uploads = uploads;
        this.batches = batches;
    }

    private Observation batch(BatchObservationContext context) {
        return Observation.createNotStarted(batches, BATCHES, () -> context, registry);
    }

    @Override
    public void batchStarted(BatchEvent batch) {
        running.put(id(batch), batch(new BatchObservationContext(batch)).start());
    }

    @Override
    public void batchRejected(BatchEvent batch, UploaderSaturatedException exception) {
        BatchObservationContext context = new BatchObservationContext(batch);
        context.outcome("rejected");
        batch(context).start().error(exception).stop();
    }

    @Override
    public void uploadStarted(UploadEvent upload, Duration queued) {
        Observation batch = running.get(id(upload.batch()));
        UploadObservationContext context = new UploadObservationContext(upload);
        Observation observation = Observation.createNotStarted(uploads, UPLOADS, () -> context, registry)
                .parentObservation(batch);
        if (batch == null) {
            observation.start();
        } else {
            // Started in the batch's scope: a tracer takes the thread's current span over the parent observation's,
            // and the upload thread's current span is the request's (the context propagated to it), not the batch's.
            Observation.Scope scope = batch.openScope();
            try {
                observation.start();
            } finally {
                scope.close();
            }
        }
        running.put(id(upload), observation);
    }

    @Override
    public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
        end(upload, "success", null);
    }

    @Override
    public void uploadFailed(UploadEvent upload, Throwable failure, Duration took) {
        end(upload, failure instanceof UploadTimeoutException ? "timeout"
                : failure instanceof CancellationException || failure instanceof UploaderClosedException
                        ? "cancelled" : "failure", failure);
    }

    private void end(UploadEvent upload, String outcome, @Nullable Throwable failure) {
        Observation observation = running.remove(id(upload));
        if (observation != null) {
            ((UploadObservationContext) observation.getContext()).outcome(outcome);
            if (failure != null) {
                observation.error(failure);
            }
            observation.stop();
        }
    }

    @Override
    public void batchFinished(BatchEvent batch, BatchResult result, Duration took) {
        Observation observation = running.remove(id(batch));
        if (observation != null) {
            long stored = result.results().stream().filter(r -> r.isStored()).count();
            ((BatchObservationContext) observation.getContext()).outcome(stored == result.size() ? "success"
                    : stored == 0 ? "failure" : "partial");
            observation.stop();
        }
    }

    private static String id(BatchEvent batch) {
        return batch.uploaderName() + "/" + batch.batchId();
    }

    private static String id(UploadEvent upload) {
        return id(upload.batch()) + "/" + upload.index();
    }
}
