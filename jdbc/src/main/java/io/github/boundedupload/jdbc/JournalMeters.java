package io.github.boundedupload.jdbc;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
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
    private @Nullable DeferredUploads deferred;
    private DeferredUploads.@Nullable Stats lastDeferred;
    private long lastDeferredRead;

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

    /**
     * Adds the meters of deferred uploads, read from {@link DeferredUploads#stats()} at most once per refresh too:
     * {@code bounded.upload.deferred.pending} (attachments staged and not stored, on every instance),
     * {@code bounded.upload.deferred.staged} (their bytes), and the counters {@code bounded.upload.deferred.stored},
     * {@code ...failed} and {@code ...retried} of this instance; tagged {@code uploader} too.
     *
     * @param deferred the deferred uploads
     * @return meters that bind those too
     */
    public JournalMeters withDeferred(DeferredUploads deferred) {
        JournalMeters meters = new JournalMeters(journal, Duration.ofNanos(refreshNanos));
        meters.deferred = Objects.requireNonNull(deferred, "deferred");
        return meters;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        DeferredUploads uploads = deferred;
        if (uploads != null) {
            bindDeferred(registry, uploads);
        }
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

    private void bindDeferred(MeterRegistry registry, DeferredUploads uploads) {
        Tags tags = Tags.of("instance", journal.instanceName(), "uploader", uploads.uploaderName());
        Gauge.builder("bounded.upload.deferred.pending", uploads, u -> deferredStats(u).pendingAttachments())
                .description("deferred attachments staged and not stored yet, on every instance").tags(tags)
                .register(registry);
        Gauge.builder("bounded.upload.deferred.staged", uploads, u -> deferredStats(u).stagedBytes())
                .description("bytes of the deferred attachments staged").baseUnit("bytes").tags(tags)
                .register(registry);
        FunctionCounter.builder("bounded.upload.deferred.stored", uploads, u -> deferredStats(u).stored())
                .description("deferred attachments this instance recorded stored").tags(tags).register(registry);
        FunctionCounter.builder("bounded.upload.deferred.failed", uploads, u -> deferredStats(u).failed())
                .description("deferred attachments this instance recorded failed").tags(tags).register(registry);
        FunctionCounter.builder("bounded.upload.deferred.retried", uploads, u -> deferredStats(u).retried())
                .description("failed tries of deferred batches this instance scheduled again").tags(tags)
                .register(registry);
    }

    private synchronized DeferredUploads.Stats deferredStats(DeferredUploads uploads) {
        long now = System.nanoTime();
        DeferredUploads.Stats stats = lastDeferred;
        if (stats == null || now - lastDeferredRead >= refreshNanos) {
            stats = uploads.stats();
            lastDeferred = stats;
            lastDeferredRead = now;
        }
        return stats;
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
