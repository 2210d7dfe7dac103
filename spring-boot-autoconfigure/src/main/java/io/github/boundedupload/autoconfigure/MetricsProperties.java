package io.github.boundedupload.autoconfigure;

/** Settings of the Micrometer metrics. Changes when the metrics get another setting. */
public class MetricsProperties {

    /**
     * Whether to publish the uploader's meters (bounded.upload.*, and executor.* for its own thread pool) to the
     * application's MeterRegistry.
     */
    private boolean enabled = true;

    /**
     * Whether to observe each batch and each upload with Micrometer Observation (bounded.upload.batch.observed,
     * bounded.upload.observed) when the application has an ObservationRegistry: with tracing, a span per upload under
     * its batch, under the request that submitted it.
     */
    private boolean observations = true;

    /**
     * Whether the observations also make timers of their own with Micrometer's observation handler
     * (bounded.upload.batch.observed, bounded.upload.observed, and their '.active' long task timers). Off, because
     * bounded.upload.batch and bounded.upload already time every batch and upload: one timer each. The observations,
     * and so the spans of tracing, stay.
     */
    private boolean observationTimers = false;

    public boolean isObservationTimers() {
        return observationTimers;
    }

    public void setObservationTimers(boolean observationTimers) {
        this.observationTimers = observationTimers;
    }

    public boolean isObservations() {
        return observations;
    }

    public void setObservations(boolean observations) {
        this.observations = observations;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }
}
