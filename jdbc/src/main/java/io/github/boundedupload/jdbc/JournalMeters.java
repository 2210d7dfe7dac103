package io.github.boundedupload.jdbc;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * The journal's meters, read from {@link JdbcUploadJournal#status()} at most once per {@code refresh} (one query on
 * the database). The gauges are figures of the whole fleet, which every instance reports alike: tagged
 * {@code scope=fleet}, to be read with {@code max}, not {@code sum}. The counters are this instance's: tagged
 * {@code journal.instance} with its name (not {@code instance}, which Prometheus keeps for the scraped target and would
 * rename ours {@code exported_instance}). Changes when a journal meter, or what it measures, changes. The meters:
 * <ul>
 *   <li>{@code bounded.upload.journal.batches.unsettled}: batches neither kept nor removed yet, on every instance;</li>
 *   <li>{@code bounded.upload.journal.batches.oldest.age} (seconds): how long ago the oldest of them began;</li>
 *   <li>{@code bounded.upload.journal.compensations.pending}: batches being removed;</li>
 *   <li>{@code bounded.upload.journal.compensations.failing}: compensations that failed {@code failingAfter} times
 *       in a row, and are still retried;</li>
 *   <li>{@code bounded.upload.journal.compensations.completed} and {@code ...compensations.retried}: counters of this
 *       instance;</li>
 *   <li>{@code bounded.upload.journal.fenced}: steps this instance did not take because another instance had taken its
 *       work over (it was paused, or cut off from the database, for longer than the liveness timeout); each is logged
 *       at WARN with what was not done.</li>
 * </ul>
 * Requires micrometer-core on the class path.
 */
public final class JournalMeters implements MeterBinder {

    /** The tag of this instance's counters. */
    public static final String INSTANCE = "journal.instance";
    /** The tag of the gauges of the whole fleet, which every instance reports alike. */
    private static final Tags FLEET = Tags.of("scope", "fleet");

    private final JdbcUploadJournal journal;
    private final Duration refresh;
    private final Reused<JournalStatus> status;
    private final @Nullable DeferredUploads deferred;
    private final Reused<DeferredUploads.Stats> deferredStats;
    private final @Nullable JdbcGrantStore grants;

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
        this(journal, refresh, null, null);
    }

    private JournalMeters(JdbcUploadJournal journal, Duration refresh, @Nullable DeferredUploads deferred,
            @Nullable JdbcGrantStore grants) {
        this.journal = Objects.requireNonNull(journal, "journal");
        this.grants = grants;
        this.refresh = refresh;
        this.status = new Reused<>(journal::status, refresh);
        this.deferred = deferred;
        this.deferredStats = new Reused<>(() -> Objects.requireNonNull(deferred, "deferred").stats(), refresh);
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
        return new JournalMeters(journal, refresh, Objects.requireNonNull(deferred, "deferred"), grants);
    }

    /**
     * Adds the counter of the staging objects the grant store's reconciliation removed on this instance,
     * {@code bounded.upload.direct.staging.removed}.
     *
     * @param store the grant store of direct uploads
     * @return meters that bind that too
     */
    public JournalMeters withGrants(JdbcGrantStore store) {
        return new JournalMeters(journal, refresh, deferred, Objects.requireNonNull(store, "store"));
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        DeferredUploads uploads = deferred;
        if (uploads != null) {
            bindDeferred(registry, uploads);
        }
        JdbcGrantStore store = grants;
        if (store != null) {
            FunctionCounter.builder("bounded.upload.direct.staging.removed", store, JdbcGrantStore::removedObjects)
                    .description("Staging objects of direct uploads that no grant covers any more, removed by this"
                            + " instance, and their multipart uploads nobody completed, aborted")
                    .tag(INSTANCE, journal.instanceName()).register(registry);
        }
        gauge(registry, "bounded.upload.journal.batches.unsettled", "Batches neither kept nor removed yet", null,
                JournalStatus::unsettledBatches);
        gauge(registry, "bounded.upload.journal.batches.oldest.age", "How long ago the oldest unsettled batch began",
                "seconds", s -> s.oldestUnsettled().map(Duration::toMillis).orElse(0L) / 1000.0);
        gauge(registry, "bounded.upload.journal.compensations.pending", "Batches being removed", null,
                JournalStatus::compensationsPending);
        gauge(registry, "bounded.upload.journal.compensations.failing",
                "Compensations failing again and again, still retried", null, JournalStatus::compensationsFailing);
        // The journal is the meters' state object (held weakly, and the application holds it); the functions hold
        // this, with its cached status.
        FunctionCounter.builder("bounded.upload.journal.compensations.completed", journal,
                j -> status.get().compensationsCompleted())
                .description("Compensations this instance completed").tag(INSTANCE, journal.instanceName())
                .register(registry);
        FunctionCounter.builder("bounded.upload.journal.compensations.retried", journal,
                j -> status.get().compensationsRetried())
                .description("Failed compensation tries this instance scheduled again")
                .tag(INSTANCE, journal.instanceName()).register(registry);
        FunctionCounter.builder("bounded.upload.journal.fenced", journal, j -> status.get().fenced())
                .description("Steps this instance did not take because another instance had taken its work over")
                .tag(INSTANCE, journal.instanceName()).register(registry);
    }

    private void gauge(MeterRegistry registry, String name, String description, @Nullable String unit,
            ToDoubleFunction<JournalStatus> value) {
        Gauge.builder(name, journal, j -> value.applyAsDouble(status.get())).description(description).baseUnit(unit)
                .tags(FLEET).register(registry);
    }

    private void bindDeferred(MeterRegistry registry, DeferredUploads uploads) {
        Tags tags = Tags.of(INSTANCE, journal.instanceName(), "uploader", uploads.uploaderName());
        Tags fleet = FLEET.and("uploader", uploads.uploaderName());
        Gauge.builder("bounded.upload.deferred.pending", uploads, u -> deferredStats.get().pendingAttachments())
                .description("Deferred attachments staged and not stored yet, on every instance").tags(fleet)
                .register(registry);
        Gauge.builder("bounded.upload.deferred.staged", uploads, u -> deferredStats.get().stagedBytes())
                .description("Bytes of the deferred attachments staged").baseUnit("bytes").tags(fleet)
                .register(registry);
        FunctionCounter.builder("bounded.upload.deferred.stored", uploads, u -> deferredStats.get().stored())
                .description("Deferred attachments this instance recorded stored").tags(tags).register(registry);
        FunctionCounter.builder("bounded.upload.deferred.failed", uploads, u -> deferredStats.get().failed())
                .description("Deferred attachments this instance recorded failed").tags(tags).register(registry);
        FunctionCounter.builder("bounded.upload.deferred.retried", uploads, u -> deferredStats.get().retried())
                .description("Failed tries of deferred batches this instance scheduled again").tags(tags)
                .register(registry);
    }

    /** A value read at most once per refresh, and reused in between (each read is a query on the database). */
    private static final class Reused<T> {
        private final Supplier<T> read;
        private final long refreshNanos;
        private @Nullable T last;
        private long lastRead;

        Reused(Supplier<T> read, Duration refresh) {
            this.read = read;
            this.refreshNanos = refresh.toNanos();
        }

        synchronized T get() {
            long now = System.nanoTime();
            T value = last;
            if (value == null || now - lastRead >= refreshNanos) {
                value = read.get();
                last = value;
                lastRead = now;
            }
            return value;
        }
    }
}
