package io.github.boundedupload.jdbc;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * What the journal holds now, for every instance sharing its database, and what this instance's compensations did
 * since it started. Changes when what the journal reports of its state changes.
 *
 * @param unsettledBatches batches that may have written objects and are neither kept nor removed yet
 * @param compensationsPending batches being removed (a compensation task runs or waits for its next try)
 * @param compensationsFailing compensations that have failed at least {@code failingAfter} times in a row
 * @param oldestUnsettledAge how long ago the oldest unsettled batch began, or null when there is none
 * @param failing the failing compensations, most tries first (at most 10): batch, uploader, tries and last failure
 * @param compensationsCompleted compensations this instance completed since it started
 * @param compensationsRetried failed compensation tries this instance scheduled again since it started
 * @param fenced steps this instance did not take since it started, because another instance had taken its work over
 *        (it was paused or cut off for longer than the liveness timeout); each is logged at WARN
 */
public record JournalStatus(long unsettledBatches, long compensationsPending, long compensationsFailing,
        @Nullable Duration oldestUnsettledAge, List<String> failing, long compensationsCompleted,
        long compensationsRetried, long fenced) {

    /**
     * A status; {@code failing} is copied.
     *
     * @param unsettledBatches batches neither kept nor removed
     * @param compensationsPending batches being removed
     * @param compensationsFailing compensations failing
     * @param oldestUnsettledAge age of the oldest unsettled batch, or null
     * @param failing the failing compensations, described
     * @param compensationsCompleted compensations completed here
     * @param compensationsRetried compensation tries retried here
     * @param fenced steps not taken here, because the work was another instance's
     */
    public JournalStatus {
        failing = List.copyOf(failing);
    }

    /**
     * The age of the oldest unsettled batch.
     *
     * @return the age, or empty when the journal holds no batch
     */
    public Optional<Duration> oldestUnsettled() {
        return Optional.ofNullable(oldestUnsettledAge);
    }
}
