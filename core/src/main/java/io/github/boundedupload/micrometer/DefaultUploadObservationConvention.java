package io.github.boundedupload.micrometer;

import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;

/**
 * The observation of each upload, from its start to its end (without the time queued): named {@value #NAME}
 * (contextual name {@code bounded-upload upload}), with the low-cardinality key values {@code uploader} and, once it
 * ended, {@code outcome} ({@code success}, {@code failure}, {@code timeout}, {@code cancelled}); Micrometer's meter
 * handler adds {@code error}. No high-cardinality key value: the object key holds the user's file name, which stays
 * out of spans unless an application adds it in a convention of its own:
 *
 * <pre>{@code
 * class WithKeys extends DefaultUploadObservationConvention {
 *     public KeyValues getHighCardinalityKeyValues(UploadObservationContext context) {
 *         return KeyValues.of("key", context.upload().key());
 *     }
 * }
 * }</pre>
 *
 * Changes when the default names or key values of an upload's observation change.
 */
public class DefaultUploadObservationConvention implements UploadObservationConvention {

    /** The observation's name, and so the timer's ({@code bounded_upload_seconds} in Prometheus). */
    public static final String NAME = "bounded.upload";

    /** The default convention. */
    public DefaultUploadObservationConvention() {
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(UploadObservationContext context) {
        return "bounded-upload upload";
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(UploadObservationContext context) {
        KeyValues values = KeyValues.of(KeyValue.of("uploader", context.upload().batch().uploaderName()));
        String outcome = context.outcome();
        return outcome == null ? values : values.and("outcome", outcome);
    }
}
