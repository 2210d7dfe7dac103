package io.github.boundedupload.spi;

import io.github.boundedupload.UploaderStats;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Which uploader an {@link UploadListener} hears about when it is created and closed: its name, its bound of uploads
 * in flight, whether the executor it runs uploads on is its own, and what it is doing now, read afresh at each call
 * of {@link #stats()} (for gauges). A value the listener holds instead of the uploader itself, so that the SPI needs
 * nothing of the uploader's API. Changes when what a listener learns about an uploader changes.
 */
public final class UploaderEvent {

    private final String uploaderName;
    private final int maxConcurrentUploads;
    private final boolean ownExecutor;
    private final Supplier<UploaderStats> stats;

    /**
     * An uploader.
     *
     * @param uploaderName the uploader's name
     * @param maxConcurrentUploads its bound of uploads in flight
     * @param ownExecutor whether it runs uploads on threads it created itself (and stops when it closes)
     * @param stats reads what it is doing now
     */
    public UploaderEvent(String uploaderName, int maxConcurrentUploads, boolean ownExecutor,
            Supplier<UploaderStats> stats) {
        this.uploaderName = Objects.requireNonNull(uploaderName, "uploaderName");
        this.maxConcurrentUploads = maxConcurrentUploads;
        this.ownExecutor = ownExecutor;
        this.stats = Objects.requireNonNull(stats, "stats");
    }

    /**
     * The uploader's name.
     *
     * @return the name
     */
    public String uploaderName() {
        return uploaderName;
    }

    /**
     * The uploader's bound of uploads in flight ({@code maxConcurrentUploads}).
     *
     * @return the bound
     */
    public int maxConcurrentUploads() {
        return maxConcurrentUploads;
    }

    /**
     * Whether the uploader runs its uploads on threads it created itself, rather than on an executor it was given.
     *
     * @return whether the executor is its own
     */
    public boolean ownExecutor() {
        return ownExecutor;
    }

    /**
     * What the uploader is doing now, as {@code ConcurrentAttachmentUploader.stats()} says.
     *
     * @return a snapshot, read now
     */
    public UploaderStats stats() {
        return stats.get();
    }

    @Override
    public String toString() {
        return "uploader '" + uploaderName + "'";
    }
}
