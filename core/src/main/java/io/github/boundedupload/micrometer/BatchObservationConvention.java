package io.github.boundedupload.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names a batch's observation and its key values: from it, Micrometer's handlers make the timer and the span. The
 * default is {@link DefaultBatchObservationConvention}; an application's own (a Spring bean, with the starter) replaces
 * it. Changes when what a convention of batches is given changes.
 */
public interface BatchObservationConvention extends ObservationConvention<BatchObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof BatchObservationContext;
    }
}
