package io.github.boundedupload.micrometer;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The observation of each batch, from its submission to its end: named {@value #NAME} (contextual name
 * {@code bounded-upload batch}), with the low-cardinality key values {@code uploader} and, once it ended,
 * {@code outcome} ({@code success}, {@code partial}, {@code failure}, {@code rejected}), and the high-cardinality
 * {@code batch.size}. Changes when the default names or key values of a batch's observation change.
 */
public class DefaultBatchObservationConvention implements BatchObservationConvention {

    /** The observation's name, and so the timer's ({@code bounded_upload_batch_seconds} in Prometheus). */
    public static final String NAME = "bounded.upload.batch";

    /** The default convention. */
    public DefaultBatchObservationConvention() {
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(BatchObservationContext context) {
        return "bounded-upload batch";
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(BatchObservationContext context) {
        KeyValues values = KeyValues.of(KeyValue.of("uploader", context.batch().uploaderName()));
        String outcome = context.outcome();
        return outcome == null ? values : values.and("outcome", outcome);
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(BatchObservationContext context) {
        return KeyValues.of("batch.size", Integer.toString(context.batch().size()));
    }
}
