package io.github.boundedupload.spi;

import java.io.IOException;
import java.time.Instant;

/**
 * Signs requests that let a client (a browser, a mobile app) store one object in the storage itself, bound to what
 * the client said it would send, so that the storage refuses anything else: the storage's side of direct uploads,
 * whose bytes never cross the application. The application then confirms what arrived as a batch of
 * {@link io.github.boundedupload.AttachmentContent#ofStoredObject(io.github.boundedupload.StoredObject)}, which checks
 * each object again: a storage that does not enforce every part of a signature is still caught there. Implementations
 * are thread-safe and never log what they sign. Changes when a new kind of signed request is offered.
 *
 * <pre>{@code
 * UploadSigner signer = S3UploadSigner.builder(presigner, "my-bucket").build();
 * SignedRequest put = signer.signPut(SignRequest.builder(key, 48_213, "image/png").checksum("CRC32", crc).build());
 * // hand put.method(), put.url() and put.headers() to the client, which sends exactly those bytes
 * }</pre>
 *
 * <p>A storage whose one request stores a bounded size (S3: 5 GiB) signs the parts of a multipart upload too
 * ({@link #signsParts()}): started when it is signed, completed when the application confirms it, aborted when nobody
 * does.
 */
public interface UploadSigner {

    /**
     * Signs one PUT of exactly the object described: its key, its size and its content type, and its checksum where
     * given, are bound by the signature (the storage refuses a body of another length or, where it checks checksums,
     * other bytes); requests started after {@link SignRequest#lifetime()} are refused.
     *
     * @param request what the client will send, and for how long it may
     * @return the request the client sends
     */
    SignedRequest signPut(SignRequest request);

    /**
     * Signs a form ({@code POST}, {@code multipart/form-data}) for a plain HTML form, whose browser announces nothing
     * before the user picks the file: the storage stores one object of at most {@link SignRequest#size()} bytes under
     * the key, of the content type, and refuses a larger one and a form sent after {@link SignRequest#lifetime()}. A
     * checksum is not bound (a form has no way to compute one): the confirm step checks what arrived.
     *
     * @param request the key, the largest size, the content type, and for how long the form may be sent
     * @return the form's action URL and its fields
     */
    SignedRequest signPost(SignRequest request);

    /**
     * The largest object one {@link #signPut signed PUT} stores. Default: no limit.
     *
     * @return bytes
     */
    default long largestPut() {
        return Long.MAX_VALUE;
    }

    /**
     * Whether this signer signs multipart uploads ({@link #signParts}). Default: no.
     *
     * @return whether it does
     */
    default boolean signsParts() {
        return false;
    }

    /**
     * Starts a multipart upload of exactly the object described, and signs a PUT of each of its parts: the key, the
     * content type and each part's length are bound; a checksum is not (a storage keeps a checksum of the parts, not
     * of the object: the request must have none). Requests started after {@link SignRequest#lifetime()} are refused.
     * The upload holds storage until it is {@link #completeParts completed} or {@link #abortParts aborted}.
     *
     * @param request the object the client will send in parts, and for how long it may
     * @param partSize the size of every part but the last
     * @return the upload's id and its parts' requests
     * @throws IOException when the storage does not start the upload
     * @throws UnsupportedOperationException when {@link #signsParts()} is {@code false}
     */
    default SignedParts signParts(SignRequest request, long partSize) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " signs no multipart uploads");
    }

    /**
     * Completes a multipart upload the client sent: its parts must be 1 to the last, none missing, and together
     * {@code size} bytes; the object is then under {@code key}. An upload completed before (a second confirm) is found
     * by its object, and left as it is.
     *
     * @param key the key the upload was started for
     * @param uploadId the upload's id
     * @param size the object's size, as announced
     * @throws IOException when a part is missing or of another size (the message says which, and the upload is left
     *         for the client to finish), or when the upload is gone (aborted)
     */
    default void completeParts(String key, String uploadId, long size) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " signs no multipart uploads");
    }

    /**
     * The size of the object under a key, for the confirm of a form (whose size is a bound, not exact). Default:
     * unsupported, as for a signer that signs no forms.
     *
     * @param key the key a form stored an object under
     * @return its size, or empty when there is no object
     * @throws IOException when the storage does not answer
     */
    default java.util.OptionalLong storedSize(String key) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " cannot tell what a form stored");
    }

    /**
     * Aborts one multipart upload, whose parts the storage then forgets; an upload gone already is no failure.
     *
     * @param key the key the upload was started for
     * @param uploadId the upload's id
     * @throws IOException when the storage does not answer
     */
    default void abortParts(String key, String uploadId) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " signs no multipart uploads");
    }

    /**
     * Aborts the multipart uploads under a prefix that were started before a time and are still incomplete: the
     * reconciliation's part of what nobody confirmed. At most {@code limit} uploads per call.
     *
     * @param prefix the staging prefix
     * @param startedBefore uploads started at or after it are left
     * @param limit the most uploads aborted
     * @return how many were aborted
     * @throws IOException when the storage does not answer
     */
    default int abortIncompleteParts(String prefix, Instant startedBefore, int limit) throws IOException {
        return 0;
    }
}
