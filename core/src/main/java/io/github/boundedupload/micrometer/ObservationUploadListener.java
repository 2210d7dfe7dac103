package io.github.boundedupload.micrometer;

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
 * A Micrometer {@link Observation} per batch and per upload, so that an application with tracing gets a span per
 * batch under the span of the request that submitted it, and a span per upload under its batch (whichever thread
 * runs it); and, with Micrometer's default handler, timers of the same names. Changes when the observations or their
 * key values change.
 *
 * <table>
 * <caption>Observations</caption>
 * <tr><th>name (contextual name)</th><th>low-cardinality key values</th><th>high-cardinality</th></tr>
 * <tr><td>{@value #BATCH} ({@code bounded-upload batch})</td><td>{@code uploader}, {@code outcome}
 * ({@code success}, {@code partial}, {@code failure}, {@code rejected})</td><td>{@code batch.size}</td></tr>
 * <tr><td>{@value #UPLOAD} ({@code bounded-upload upload})</td><td>{@code uploader}, {@code outcome}
 * ({@code success}, {@code failure})</td><td>{@code key}</td></tr>
 * </table>
 *
 * The names differ from {@link MicrometerUploadListener}'s timers, so that both can be used together. A batch's parent
 * is the observation current on the thread that submits it.
 *
 * <pre>{@code
 * UploaderConfig.builder().listener(new ObservationUploadListener(observationRegistry)).build();
 * }</pre>
 */
public final class ObservationUploadListener implements UploadListener {

    /** The observation of each batch, from submission to its end. */
    public static final String BATCH = "bounded.upload.batch.observed";
    /** The observation of each upload, from its start to its end (without queueing). */
    public static final String UPLOAD = "bounded.upload.observed";

    private final ObservationRegistry registry;
    /** Running batches and uploads: each is removed when it ends, and every batch ends. */
    private final Map<String, Observation> running = new ConcurrentHashMap<>();

    /**
     * A listener that observes into a registry.
     *
     * @param registry the registry, such as Spring Boot's {@code ObservationRegistry} bean
     */
    public ObservationUploadListener(ObservationRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
    }

    @Override
    public void batchStarted(BatchEvent batch) {
        Observation observation = Observation.createNotStarted(BATCH, registry)
                .contextualName("bounded-upload batch")
                .lowCardinalityKeyValue("uploader", batch.uploaderName())
                .highCardinalityKeyValue("batch.size", Integer.toString(batch.size()))
                .start();
        running.put(id(batch), observation);
    }

    @Override
    public void batchRejected(BatchEvent batch, UploaderSaturatedException exception) {
        Observation.createNotStarted(BATCH, registry).contextualName("bounded-upload batch")
                .lowCardinalityKeyValue("uploader", batch.uploaderName())
                .lowCardinalityKeyValue("outcome", "rejected")
                .highCardinalityKeyValue("batch.size", Integer.toString(batch.size()))
                .start().error(exception).stop();
    }

    @Override
    public void uploadStarted(UploadEvent upload, Duration queued) {
        Observation batch = running.get(id(upload.batch()));
        Observation observation = Observation.createNotStarted(UPLOAD, registry)
                .contextualName("bounded-upload upload")
                .parentObservation(batch)
                .lowCardinalityKeyValue("uploader", upload.batch().uploaderName())
                .highCardinalityKeyValue("key", upload.key());
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
        Observation observation = running.remove(id(upload));
        if (observation != null) {
            observation.lowCardinalityKeyValue("outcome", "success").stop();
        }
    }

    @Override
    public void uploadFailed(UploadEvent upload, Throwable failure, Duration took) {
        Observation observation = running.remove(id(upload));
        if (observation != null) {
            observation.lowCardinalityKeyValue("outcome", "failure").error(failure).stop();
        }
    }

    @Override
    public void batchFinished(BatchEvent batch, BatchResult result, Duration took) {
        Observation observation = running.remove(id(batch));
        if (observation != null) {
            String outcome = result.allStored() ? "success" : result.storedObjects().isEmpty() ? "failure" : "partial";
            observation.lowCardinalityKeyValue("outcome", outcome).stop();
        }
    }

    private static String id(BatchEvent batch) {
        return batch.uploaderName() + "/" + batch.batchId();
    }

    private static String id(UploadEvent upload) {
        return id(upload.batch()) + "/" + upload.index();
    }
}
