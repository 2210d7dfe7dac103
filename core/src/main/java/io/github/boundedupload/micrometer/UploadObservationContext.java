package io.github.boundedupload.micrometer;

import io.github.boundedupload.spi.UploadEvent;
import io.micrometer.observation.Observation;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link UploadObservationConvention} reads of one upload: the upload, and once it ended, its outcome. Changes
 * when what a convention may read of an upload changes.
 */
public final class UploadObservationContext extends Observation.Context {

    private final UploadEvent upload;
    private volatile @Nullable String outcome;

    /**
     * The context of an upload.
     *
     * @param upload the upload
     */
    public UploadObservationContext(UploadEvent upload) {
        this.upload = Objects.requireNonNull(upload, "upload");
    }

    /**
     * The upload: its batch (and so the uploader's name), its index, its attachment and its key. The attachment's
     * file name and the key are the user's words: keep them out of tags unless the application decides otherwise.
     *
     * @return the upload
     */
    public UploadEvent upload() {
        return upload;
    }

    /**
     * How it ended: {@code success}, {@code failure}, {@code timeout} or {@code cancelled}; null while it runs.
     *
     * @return the outcome
     */
    public @Nullable String outcome() {
        return outcome;
    }

    void outcome(String outcome) {
        this.outcome = outcome;
    }
}
