package io.github.boundedupload.examples.studyweek.progress;

import io.github.boundedupload.Attachment;
import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.UploadEvent;
import io.github.boundedupload.spi.UploadListener;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;
import org.springframework.stereotype.Component;

/**
 * How far each file of a running request has got on its way to the storage, for the page's progress bars. Changes when
 * what is tracked of a running request's files changes.
 *
 * <p>The client names its request with an {@value #HEADER} header; the controller registers the request's attachments
 * under that id while the uploads run, and the uploader reports each step to this listener (the starter adds every
 * {@link UploadListener} bean to the uploader). Attachments are matched by identity: the uploader reports the very
 * objects it was given. Only running requests are kept, and at most {@value #MAX_TRACKED} of them.
 *
 * <p>The id is the only key to a request's progress, which shows its file names: it must be 128 random bits (32 hex
 * digits, as the page makes them with {@code crypto.getRandomValues}), so that nobody else can guess it, and ids that
 * are not are not tracked at all. It is the client's own secret, chosen before the request starts (the progress is
 * read while the request runs, before any answer could hand out a token), and never logged.
 */
@Component
public class UploadProgress implements UploadListener {

    /** The request header that names an upload. */
    public static final String HEADER = "X-Upload-Id";

    private static final Pattern VALID_ID = Pattern.compile("[0-9a-f]{32}");
    private static final int MAX_TRACKED = 1_000;

    /** Where a file is. */
    public enum State {
        /** Waiting for a permit. */
        QUEUED,
        /** Being written to the storage. */
        STORING,
        /** In the storage. */
        STORED,
        /** Its upload failed. */
        FAILED,
        /** Never started: another file of the request failed first. */
        SKIPPED,
        /** Was stored, then deleted again because another file of the request failed. */
        DELETED
    }

    /**
     * One file's progress, as the API shows it.
     *
     * @param fileName the file's name
     * @param size its size in bytes
     * @param bytesStored bytes sent to the storage so far
     * @param state where it is
     */
    public record FileProgress(String fileName, long size, long bytesStored, State state) {
    }

    /** A running request's files, in request order. */
    private final Map<String, List<Tracked>> byUpload = new ConcurrentHashMap<>();
    /** The same files, by attachment (identity: {@link Attachment} does not override {@code equals}). */
    private final Map<Attachment, Tracked> byAttachment = new ConcurrentHashMap<>();

    /**
     * Follows a request's attachments until the returned tracking is closed.
     *
     * @param uploadId the client's id for the request, or {@code null}; an id that is not 32 lowercase hex digits, or
     *        is busy, tracks nothing
     * @param attachments the request's attachments, in order
     * @return close it when the request is done
     */
    public Tracking track(String uploadId, List<Attachment> attachments) {
        if (uploadId == null || !VALID_ID.matcher(uploadId).matches() || byUpload.size() >= MAX_TRACKED) {
            return () -> { };
        }
        List<Tracked> files = attachments.stream().map(Tracked::new).toList();
        if (byUpload.putIfAbsent(uploadId, files) != null) {
            return () -> { };
        }
        files.forEach(file -> byAttachment.put(file.attachment, file));
        return () -> {
            byUpload.remove(uploadId);
            files.forEach(file -> byAttachment.remove(file.attachment));
        };
    }

    /**
     * The progress of a running request.
     *
     * @param uploadId the client's id for it
     * @return its files, in request order, or empty when no such request is running
     */
    public Optional<List<FileProgress>> progress(String uploadId) {
        return Optional.ofNullable(VALID_ID.matcher(uploadId).matches() ? byUpload.get(uploadId) : null)
                .map(files -> files.stream().map(Tracked::view).toList());
    }

    @Override
    public void uploadStarted(UploadEvent upload, Duration queued) {
        update(upload, State.STORING, 0);
    }

    @Override
    public void bytesSent(UploadEvent upload, long bytesSoFar) {
        update(upload, State.STORING, bytesSoFar);
    }

    @Override
    public void uploadSucceeded(UploadEvent upload, StoredObject stored, Duration took) {
        update(upload, State.STORED, stored.size());
    }

    @Override
    public void uploadFailed(UploadEvent upload, Throwable failure, Duration took) {
        update(upload, State.FAILED, -1);
    }

    @Override
    public void uploadSkipped(UploadEvent upload, Throwable reason) {
        update(upload, State.SKIPPED, -1);
    }

    @Override
    public void uploadRolledBack(UploadEvent upload, StoredObject stored, Throwable failure) {
        if (failure == null) {
            update(upload, State.DELETED, -1);
        }
    }

    private void update(UploadEvent upload, State state, long bytes) {
        Tracked file = byAttachment.get(upload.attachment());
        if (file != null) {
            file.state.set(state);
            if (bytes >= 0) {
                file.bytes.set(bytes);
            }
        }
    }

    /** Ends the tracking of a request. */
    @FunctionalInterface
    public interface Tracking extends AutoCloseable {
        @Override
        void close();
    }

    private static final class Tracked {
        final Attachment attachment;
        final AtomicReference<State> state = new AtomicReference<>(State.QUEUED);
        final AtomicLong bytes = new AtomicLong();

        Tracked(Attachment attachment) {
            this.attachment = attachment;
        }

        FileProgress view() {
            return new FileProgress(attachment.fileName(), attachment.content().length().orElse(-1), bytes.get(),
                    state.get());
        }
    }
}
