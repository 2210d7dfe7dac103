package io.github.boundedupload;

import io.github.boundedupload.support.SafeText;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;

/**
 * A batch under {@link FailurePolicy#ALL_OR_NOTHING} failed: at least one attachment failed (or the batch was
 * stopped, for example by closing the uploader), the rest were cancelled, and what had been stored was deleted
 * again. The message names every failed attachment and why; the first failure is the cause, the others are
 * suppressed exceptions. Changes when what a failed all-or-nothing batch reports changes.
 *
 * <p>STORED means stored and kept; every other status means nothing of it is stored once its background work has
 * completed ({@link #settled()}), and what was given up is reported; and no attachment of a failed batch is STORED.
 * An object whose delete failed at the first try is
 * {@link UploadResult.Status#DELETING}, never {@code STORED}: {@link #notDeleted()} lists it, the message says so, and
 * the uploader keeps trying to delete it in the background until {@link UploaderConfig#rollbackDeadline()}; what it
 * gives up on ends {@link UploadResult.Status#POSSIBLY_STORED}, logged as an error and reported to the listeners.
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
        this(result, message(uploaderName, result), cause != null ? cause : firstFailure(result));
    }

    /** {@code first}: the cause, worked out once (not read back with getCause(), which a subclass may override). */
    @SuppressWarnings("this-escape") // to Throwable.addSuppressed, which is final and reads no field of this class
    private BatchFailedException(BatchResult result, String message, @Nullable Throwable first) {
        super(message, first);
        this.result = result;
        failed(result).stream().map(r -> r.failure().orElseThrow()).filter(f -> f != first)
                .forEach(this::addSuppressed);
    }

    /**
     * Attachments that failed themselves: FAILED, and those whose outcome is unknown (being deleted, or possibly
     * stored), which were failures before anything was deleted.
     */
    private static List<UploadResult> failed(BatchResult result) {
        return result.results().stream().filter(BatchFailedException::failedItself).toList();
    }

    private static boolean failedItself(UploadResult r) {
        return r.status() == UploadResult.Status.FAILED || r.storedObject().isEmpty() && r.failure().isPresent()
                && (r.status() == UploadResult.Status.DELETING || r.status() == UploadResult.Status.POSSIBLY_STORED);
    }

    private static List<UploadResult> withStatus(BatchResult result, UploadResult.Status status) {
        return result.results().stream().filter(r -> r.status() == status).toList();
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
        List<UploadResult> deleting = withStatus(result, UploadResult.Status.DELETING);
        List<UploadResult> left = withStatus(result, UploadResult.Status.POSSIBLY_STORED);
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
        message.append("; nothing of the batch is kept");
        if (!deleting.isEmpty()) {
            message.append("; NOT DELETED YET: ").append(deleting.size()).append(" (")
                    .append(deleting.stream().map(UploadResult::key).collect(Collectors.joining(", ")))
                    .append("), being deleted in the background until the rollback deadline");
        }
        if (!left.isEmpty()) {
            message.append("; GIVEN UP, MAY STILL BE STORED: ").append(left.size()).append(" (")
                    .append(left.stream().map(UploadResult::key).collect(Collectors.joining(", "))).append(")");
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
     * Attachments that were stored, or may have been, and were not confirmed deleted when the batch reported:
     * {@link UploadResult.Status#DELETING} (still being deleted in the background) and
     * {@link UploadResult.Status#POSSIBLY_STORED} (given up).
     *
     * @return an unmodifiable list, normally empty
     */
    public List<UploadResult> notDeleted() {
        return result.results().stream().filter(r -> r.status() == UploadResult.Status.DELETING
                || r.status() == UploadResult.Status.POSSIBLY_STORED).toList();
    }

    /**
     * Completes once the batch's background work is over, with how every attachment ended then (see
     * {@link BatchResult#settled()}): wait for it to know that the deletes of {@link #notDeleted()} are done.
     *
     * @return the settled results
     */
    public CompletionStage<BatchResult> settled() {
        return result.settled();
    }
}
