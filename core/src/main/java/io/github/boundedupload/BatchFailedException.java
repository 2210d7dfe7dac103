package io.github.boundedupload;

import io.github.boundedupload.support.SafeText;
import java.util.List;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A batch under {@link FailurePolicy#ALL_OR_NOTHING} failed: at least one attachment failed (or the batch was
 * stopped, for example by closing the uploader), the rest were cancelled, and what had been stored was deleted
 * again. The message names every failed attachment and why; the first failure is the cause, the others are
 * suppressed exceptions.
 *
 * <p>If an object could not be deleted again at the first try, it is still stored: {@link #notDeleted()} lists it
 * and the message says so, so that nothing is left behind silently; the uploader keeps trying to delete it in the
 * background until {@link UploaderConfig#rollbackDeadline()}, and reports what it gives up on.
 */
public class BatchFailedException extends UploadException {

    private static final long serialVersionUID = 1L;

    private final transient BatchResult result;

    /**
     * An exception for a failed batch.
     *
     * @param uploaderName the uploader's name
     * @param result how every attachment ended
     */
    public BatchFailedException(String uploaderName, BatchResult result) {
        this(uploaderName, result, null);
    }

    /**
     * An exception for a failed batch whose failure that stopped it is known: it becomes the cause, whatever its
     * attachment's position.
     *
     * @param uploaderName the uploader's name
     * @param result how every attachment ended
     * @param cause the failure that stopped the batch, or {@code null} for the first failed attachment's
     */
    public BatchFailedException(String uploaderName, BatchResult result, @Nullable Throwable cause) {
        super(message(uploaderName, result), cause != null ? cause : firstFailure(result));
        this.result = result;
        Throwable first = getCause();
        failed(result).stream().map(r -> r.failure().orElseThrow()).filter(f -> f != first)
                .forEach(this::addSuppressed);
    }

    private static List<UploadResult> failed(BatchResult result) {
        return result.results().stream().filter(r -> r.status() == UploadResult.Status.FAILED).toList();
    }

    /** The first attachment that failed; when none did (the batch was stopped), the first stop reason. */
    private static @Nullable Throwable firstFailure(BatchResult result) {
        return failed(result).stream().findFirst()
                .or(() -> result.results().stream().filter(r -> r.failure().isPresent()).findFirst())
                .flatMap(UploadResult::failure).orElse(null);
    }

    private static String message(String uploaderName, BatchResult result) {
        List<UploadResult> failed = failed(result);
        long cancelled = result.results().stream().filter(r -> r.status() == UploadResult.Status.CANCELLED).count();
        long deleted = result.results().stream().filter(r -> r.status() == UploadResult.Status.DELETED).count();
        List<UploadResult> notDeleted = result.results().stream().filter(UploadResult::isStored).toList();
        StringBuilder message = new StringBuilder()
                .append("uploader '").append(uploaderName).append("': ");
        if (failed.isEmpty()) {
            Throwable reason = firstFailure(result);
            message.append("the batch of ").append(result.size()).append(" was stopped before it completed")
                    .append(reason == null ? "" : " (" + SafeText.describe(reason) + ")");
        } else {
            message.append(failed.size()).append(" of ").append(result.size())
                    .append(" attachments failed: ")
                    .append(failed.stream().map(r -> SafeText.label(r.index(), r.attachment().fileName())
                            + ": " + SafeText.describe(r.failure().orElseThrow())).collect(Collectors.joining("; ")));
        }
        message.append(" (").append(cancelled).append(" cancelled, ").append(deleted).append(" deleted again)");
        if (notDeleted.isEmpty()) {
            message.append("; nothing of the batch is kept");
        } else {
            message.append("; COULD NOT DELETE ").append(notDeleted.size()).append(", still stored: ")
                    .append(notDeleted.stream().map(UploadResult::key).collect(Collectors.joining(", ")))
                    .append(" (the uploader keeps trying to delete them until its rollback deadline)");
        }
        return message.toString();
    }

    /**
     * How every attachment ended, in input order.
     *
     * @return the batch result
     */
    public BatchResult result() {
        return result;
    }

    /**
     * The attachments that failed themselves (not those cancelled because of them), in input order.
     *
     * @return an unmodifiable list
     */
    public List<UploadResult> failures() {
        return failed(result);
    }

    /**
     * Objects that were stored and could not be deleted again: they are still in the storage.
     *
     * @return an unmodifiable list, normally empty
     */
    public List<UploadResult> notDeleted() {
        return result.results().stream().filter(UploadResult::isStored).toList();
    }
}
