package io.github.boundedupload.autoconfigure;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import io.github.boundedupload.UploaderConfig;
import io.github.boundedupload.UploaderStats;
import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.micrometer.MicrometerUploadListener;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The health of an uploader, independent of the Actuator API (which differs between Spring Boot 3 and 4). Changes when
 * what makes an uploader healthy changes.
 *
 * <p>DOWN when the uploader is closed, its local storage directory cannot be written to, or its S3 bucket cannot be
 * found or reached. A saturated uploader
 * (its queue full) is still UP, with {@code saturated: true}: saturation is load that the rejection policy handles,
 * and a health check that failed under load would make a platform restart or drain instances exactly when they are
 * busiest.
 */
final class UploaderHealth {

    /**
     * The details that a meter of {@code MicrometerUploadListener} also shows, with that meter's name: both read the
     * same {@link UploaderStats}, and the metrics page lists them side by side.
     */
    static final Map<String, String> METER_OF_DETAIL = Map.of("activeUploads", MicrometerUploadListener.IN_FLIGHT,
            "queuedUploads", MicrometerUploadListener.QUEUED, "activeBytes", MicrometerUploadListener.IN_FLIGHT_BYTES,
            "activeBatches", MicrometerUploadListener.IN_FLIGHT_BATCHES, "concurrencyLimit", MicrometerUploadListener.LIMIT,
            "pendingRollbacks", MicrometerUploadListener.ROLLBACKS_PENDING, "stuckUploads",
            MicrometerUploadListener.STUCK);

    private final ConcurrentAttachmentUploader uploader;
    private final @Nullable StorageCheck storageCheck;
    private final @Nullable JournalCheck journalCheck;
    private final @Nullable StorageInUse storageInUse;

    /**
     * @param uploader the uploader
     * @param storage the application's single storage bean, if any: a {@link LocalFileUploader} gets its directory
     *        checked (the uploader does not reveal its storage, so the bean is the best evidence there is)
     * @param storageCheck the check of a storage configured here (S3), if any; it wins over the storage bean's
     * @param journalCheck the upload journal's state, if there is a journal: details only (its compensations are
     *        retried until they succeed, and an instance restarted for them could not help)
     */
    UploaderHealth(ConcurrentAttachmentUploader uploader, @Nullable Object storage,
            @Nullable StorageCheck storageCheck, @Nullable JournalCheck journalCheck) {
        this.uploader = uploader;
        this.journalCheck = journalCheck;
        this.storageCheck = storageCheck != null ? storageCheck
                : storage instanceof LocalFileUploader ? new DirectoryCheck(((LocalFileUploader) storage).root())
                : null;
        this.storageInUse = StorageInUse.of(storage, this.storageCheck);
    }

    /**
     * The health of one of several uploaders: its state, load and limits, no storage check (an uploader does not
     * reveal the storage it writes to, so a storage bean cannot be matched to it).
     */
    static UploaderHealth alone(ConcurrentAttachmentUploader uploader) {
        return new UploaderHealth(uploader, null, null, null);
    }

    /** Whether a file can be created (and deleted again) in the directory. */
    private static final class DirectoryCheck implements StorageCheck {
        private final Path root;

        DirectoryCheck(Path root) {
            this.root = root;
        }

        @Override
        public StorageInUse storage() {
            return new StorageInUse("local", root.toString(), null);
        }

        @Override
        public boolean check(Map<String, Object> details) {
            try {
                Files.delete(Files.createTempFile(root, ".health-", ".tmp"));
                return true;
            } catch (IOException | RuntimeException e) {
                details.put("error", "cannot write to the storage directory: " + e);
                return false;
            }
        }
    }

    /** The outcome of one check. */
    record Report(boolean up, Map<String, Object> details) {
    }

    Report check() {
        UploaderStats stats = uploader.stats();
        UploaderConfig config = uploader.config();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("name", uploader.name());
        details.put("closed", stats.closed());
        details.put("activeUploads", stats.inFlightUploads());
        details.put("maxConcurrentUploads", config.maxConcurrentUploads());
        details.put("concurrencyLimit", stats.concurrencyLimit() == 0 ? config.maxConcurrentUploads()
                : stats.concurrencyLimit());
        details.put("queuedUploads", stats.queuedUploads());
        details.put("maxQueuedUploads", config.maxQueuedUploads());
        details.put("activeBytes", stats.bytesInFlight());
        details.put("maxBytesInFlight", config.maxBytesInFlight());
        details.put("activeBatches", stats.activeBatches());
        // Normally 0: deletes that undo failed batches and wait for the storage, and calls that did not stop.
        details.put("pendingRollbacks", stats.pendingRollbacks());
        details.put("stuckUploads", stats.stuckUploads());
        details.put("saturated", stats.queuedUploads() >= config.maxQueuedUploads());
        boolean up = !stats.closed();
        if (storageInUse != null) {
            details.put("storage", storageInUse.location());
            details.put("storageType", storageInUse.type());
        }
        if (storageCheck != null) {
            up &= storageCheck.check(details);
        }
        if (journalCheck != null) {
            journalCheck.addTo(details);
        }
        return new Report(up, details);
    }
}
