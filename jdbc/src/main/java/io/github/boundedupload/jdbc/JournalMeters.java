package io.github.boundedupload.jdbc;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.Objects;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * The journal's meters, read from {@link JdbcUploadJournal#status()} at most once per {@code refresh} (one query on
 * the database), tagged {@code instance}:
 * <ul>
 *   <li>{@code bounded.upload.journal.batches.unsettled}: batches neither kept nor removed yet, on every instance;</li>
 *   <li>{@code bounded.upload.journal.batches.oldest.age} (seconds): how long ago the oldest of them began;</li>
 *   <li>{@code bounded.upload.journal.compensations.pending}: batches being removed;</li>
 *   <li>{@code bounded.upload.journal.compensations.failing}: compensations that failed {@code failingAfter} times
 *       in a row, and are still retried;</li>
 *   <li>{@code bounded.upload.journal.compensations.completed} and {@code ...compensations.retried}: counters of this
 *       instance.</li>
 * </ul>
 * Requires micrometer-core on the class path.
 */
public final class JournalMeters implements MeterBinder {

    private final JdbcUploadJournal journal;
    private final long refreshNanos;
    private @Nullable JournalStatus last;
    private long lastRead;

    /**
     * Meters that read the journal's status at most every 5 seconds.
     *
     * @param journal the journal
     */
    public JournalMeters(JdbcUploadJournal journal) {
        this(journal, Duration.ofSeconds(5));
    }

    /**
     * Meters that read the journal's status at most once per {@code refresh}.
     *
     * @param journal the journal
     * @param refresh how long a status read is reused
     */
    public JournalMeters(JdbcUploadJournal journal, Duration refresh) {
        this.journal = Objects.requireNonNull(journal, "journal");
        this.refreshNanos = refresh.toNanos();
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        gauge(registry, "bounded.upload.journal.batches.unsettled", "batches neither kept nor removed yet", null,
                JournalStatus::unsettledBatches);
        gauge(registry, "bounded.upload.journal.batches.oldest.age", "how long ago the oldest unsettled batch began",
                "seconds", s -> s.oldestUnsettled().map(Duration::toMillis).orElse(0L) / 1000.0);
        gauge(registry, "bounded.upload.journal.compensations.pending", "batches being removed", null,
                JournalStatus::compensationsPending);
        gauge(registry, "bounded.upload.journal.compensations.failing",
                "compensations failing again and again, still retried", null, JournalStatus::compensationsFailing);
        // The journal is the meters' state object (held weakly, and the application holds it); the functions hold
        // this, with its cached status.
        FunctionCounter.builder("bounded.upload.journal.compensations.completed", journal,
                j -> status().compensationsCompleted())
                .description("compensations this instance completed").tag("instance", journal.instanceName())
                .register(registry);
        FunctionCounter.builder("bounded.upload.journal.compensations.retried", journal,
                j -> status().compensationsRetried())
                .description("failed compensation tries this instance scheduled again")
                .tag("instance", journal.instanceName()).register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String description, @Nullable String unit,
            ToDoubleFunction<JournalStatus> value) {
        Gauge.builder(name, journal, j -> value.applyAsDouble(status())).description(description).baseUnit(unit)
                .tag("instance", journal.instanceName()).register(registry);
    }

    private synchronized JournalStatus status() {
        long now = System.nanoTime();
        JournalStatus status = last;
        if (status == null || now - lastRead >= refreshNanos) {
            status = journal.status();
            last = status;
            lastRead = now;
        }
        return status;
    }
}
