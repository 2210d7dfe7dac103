package io.github.boundedupload.s3.internal;

import io.github.boundedupload.StoredObject;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.slf4j.Logger;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;

/**
 * One PutObject, and what follows when its answer is lost: when a request fails after its whole body was handed to
 * the HTTP client and no answer came (reset, timeout, interrupt, 5xx), S3 may have stored the object. HeadObject then
 * tells: the object under the key is ours when its size and checksum are those of the bytes sent (computed while they
 * went out), and the upload succeeds after all; a cancelled upload deletes it instead.
 * Changes when the steps of one PutObject change.
 */
final class SinglePut {

    private static final Logger LOG = ObjectUpload.LOG;

    private final ObjectUpload upload;

    SinglePut(ObjectUpload upload) {
        this.upload = upload;
    }

    CompletableFuture<StoredObject> put(Payload payload) {
        PutObjectRequest put = upload.object().contentLength(payload.length())
                .overrideConfiguration(upload.callTimeout()).build();
        Instant asked = Instant.now();
        return upload.track(upload.ops.put(put, payload, upload.tasks)).handle((response, failure) -> failure == null
                ? upload.keep(upload.stored(payload.length(), response.eTag(), response.versionId(),
                        Digest.pick(upload.algorithm, response::checksumCRC32, response::checksumCRC32C,
                                response::checksumSHA1, response::checksumSHA256)))
                : afterFailedPut(failure, payload.sent, asked)).thenCompose(Function.identity());
    }

    private CompletableFuture<StoredObject> afterFailedPut(Throwable failure, Sent sent, Instant asked) {
        if (!sent.readByClient()) {
            return afterFailedPut(failure, sent);
        }
        // The CRT client read the file itself, and sends a large one as a multipart upload of its own, which it aborts
        // on failure, unless the network that failed the upload fails the abort too. Whatever it left is aborted here.
        return afterFailedPut(failure, sent).handle((stored, notStored) -> notStored == null
                ? CompletableFuture.completedFuture(stored)
                : upload.abortUploadsSince(asked, notStored, "the upload failed")).thenCompose(Function.identity());
    }

    private CompletableFuture<StoredObject> afterFailedPut(Throwable failure, Sent sent) {
        // Sealed first: a cancelled request may still be handed its last bytes (and send them) after its future
        // completed; from here on it cannot, so "not all went out" stays true.
        boolean fullySent = sent.seal();
        if (Failures.refused(failure) || !fullySent) {
            LOG.debug("s3://{}/{}: not stored ({}): {}", upload.settings.bucket(), upload.key,
                    fullySent ? "refused" : "the content did not all go out", Failures.describe(failure));
            return CompletableFuture.failedFuture(failure); // S3 stored nothing of this upload.request
        }
        // The whole content went out and no answer came: S3 may have stored it, or may still (a request the network
        // held can arrive late). Look; when nothing is there, look once more after the settle time.
        if (!sent.readByClient()) {
            return upload.lookFor(sent.length(), sent.checksum(), failure, true, false); // its checksum taken as it went
        }
        return upload.ops.read(() -> {
            sent.checksumOfFile();
            return sent;
        }).handle((read, readFailure) -> readFailure == null
                ? upload.lookFor(sent.length(), sent.checksum(), failure, true, true)
                : upload.outcomeUnknown(failure, "reading the file again for its checksum failed: "
                        + Failures.describe(readFailure))).thenCompose(Function.identity());
    }
}
