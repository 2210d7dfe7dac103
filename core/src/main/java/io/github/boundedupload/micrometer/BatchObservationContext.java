package io.github.boundedupload.micrometer;

import io.github.boundedupload.spi.BatchEvent;
import io.micrometer.observation.Observation;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link BatchObservationConvention} reads of one batch: the batch, and once it ended, its outcome. Changes
 * when what a convention may read of a batch changes.
 */
public final class BatchObservationContext extends Observation.Context {

    private final BatchEvent batch;
    private volatile @Nullable String outcome;

    /**
     * The context of a batch.
     *
     * @param batch the batch
     */
    public BatchObservationContext(BatchEvent batch) {
        this.batch = Objects.requireNonNull(batch, "batch");
    }

    /**
     * The batch: its uploader's name, its id and its size.
     *
     * @return the batch
     */
    public BatchEvent batch() {
        return batch;
    }

    /**
     * How it ended: {@code success}, {@code partial}, {@code failure} or {@code rejected}; null while it runs.
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
