package io.github.boundedupload.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names an upload's observation and its key values: from it, Micrometer's handlers make the timer and the span. The
 * default is {@link DefaultUploadObservationConvention}; an application's own (a Spring bean, with the starter) replaces
 * it, for example to add the object key as a high-cardinality key value to spans. Changes when what a convention of
 * uploads is given changes.
 */
public interface UploadObservationConvention extends ObservationConvention<UploadObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof UploadObservationContext;
    }
}
