package io.github.boundedupload.spi;

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
}
