package io.github.boundedupload.spi;

import java.util.List;
import java.util.Objects;

/**
 * One multipart upload a client sends itself, started by an {@link UploadSigner}: the upload's id, the size of every
 * part but the last (which holds the rest), and a signed request per part, in order (part 1 first). Part {@code n}
 * holds the bytes {@code (n - 1) * partSize} up to {@code n * partSize} (or the end). The client sends the parts in
 * any order, several at once if it likes; the application completes the upload when it confirms it. Immutable;
 * {@link #toString()} gives no URL. Changes when a client needs more to send the parts of an upload.
 *
 * @param uploadId the storage's id of the multipart upload (not a secret: the signatures are)
 * @param partSize the size of every part but the last, in bytes
 * @param parts a signed request per part, part 1 first
 */
public record SignedParts(String uploadId, long partSize, List<SignedRequest> parts) {

    /**
     * A signed multipart upload.
     *
     * @param uploadId the upload's id
     * @param partSize the size of every part but the last
     * @param parts a signed request per part, at least one
     * @throws IllegalArgumentException when there is no part, or the part size is not positive
     */
    public SignedParts {
        Objects.requireNonNull(uploadId, "uploadId");
        if (partSize < 1 || parts.isEmpty()) {
            throw new IllegalArgumentException("a multipart upload has one part or more, of one byte or more");
        }
        parts = List.copyOf(parts);
    }

    @Override
    public String toString() {
        return "SignedParts[" + parts.size() + " parts of " + partSize + " bytes]";
    }
}
