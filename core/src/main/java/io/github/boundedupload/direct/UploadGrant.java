package io.github.boundedupload.direct;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.SignedParts;
import io.github.boundedupload.spi.SignedRequest;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The right of one caller to upload one announced file itself, once, before an expiry: an unguessable id, the staging
 * key the file goes to (never its name), for a large file the multipart upload it goes in, whether it is sent with a
 * form (whose size is a bound, not exact), and, just after it was granted, what the client sends: one signed request
 * (a PUT, or a form), or a signed request per part. Once confirmed, what the confirm
 * stored. Immutable. Changes when what a grant records changes.
 *
 * @param id the grant's id: random, unguessable; what the client reports back to confirm it
 * @param caller the caller key it was granted to (a user, a tenant): only that caller can confirm it
 * @param file the file as the client announced it
 * @param stagingKey where the client stores the file
 * @param expiresAt when the signed requests stop being accepted
 * @param uploadId the multipart upload the file is sent in, part by part; {@code null} for a file sent in one request
 * @param form whether the file is sent with a form ({@code POST}): its announced size is then the most it may have,
 *        and the confirm takes the size found
 * @param request the signed request for the client of a file sent in one request; {@code null} otherwise, and in
 *        grants read back from a {@link GrantStore}
 * @param parts the signed requests of the parts of a file sent in parts; {@code null} otherwise, and in grants read
 *        back from a {@link GrantStore}
 * @param confirmed what confirming it stored; {@code null} until it is confirmed
 */
public record UploadGrant(String id, String caller, FileToUpload file, String stagingKey, Instant expiresAt,
        @Nullable String uploadId, boolean form, @Nullable SignedRequest request, @Nullable SignedParts parts,
        @Nullable StoredObject confirmed) {

    /**
     * A grant.
     *
     * @param id the grant's id
     * @param caller the caller key
     * @param file the file as announced
     * @param stagingKey where the client stores the file
     * @param expiresAt when the signed requests stop being accepted
     * @param uploadId the multipart upload, or {@code null}
     * @param form whether the file is sent with a form
     * @param request the signed request, or {@code null}
     * @param parts the signed requests of the parts, or {@code null}
     * @param confirmed what confirming it stored, or {@code null}
     * @throws NullPointerException when a part that is never {@code null} is
     */
    public UploadGrant {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(caller, "caller");
        Objects.requireNonNull(file, "file");
        Objects.requireNonNull(stagingKey, "stagingKey");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }

    /**
     * A grant of one file, not yet signed nor confirmed.
     *
     * @param id the grant's id
     * @param caller the caller key
     * @param file the file as announced
     * @param stagingKey where the client stores the file
     * @param expiresAt when the signed requests stop being accepted
     * @return the grant
     */
    public static UploadGrant of(String id, String caller, FileToUpload file, String stagingKey, Instant expiresAt) {
        return new UploadGrant(id, caller, file, stagingKey, expiresAt, null, false, null, null, null);
    }

    /**
     * A grant of one file sent with a form, not yet signed nor confirmed: the file's size is the most it may have.
     *
     * @param id the grant's id
     * @param caller the caller key
     * @param file the file as announced, its size the most it may have
     * @param stagingKey where the client stores the file
     * @param expiresAt when the signed form stops being accepted
     * @return the grant
     */
    public static UploadGrant ofForm(String id, String caller, FileToUpload file, String stagingKey,
            Instant expiresAt) {
        return new UploadGrant(id, caller, file, stagingKey, expiresAt, null, true, null, null, null);
    }

    /**
     * The signed request, on a grant just made of a file sent in one request: a PUT, or a form ({@link #form()}).
     *
     * @return the request, or empty on a grant read back from a store, or of a file sent in parts
     */
    public Optional<SignedRequest> signedRequest() {
        return Optional.ofNullable(request);
    }

    /**
     * The signed requests of the parts, on a grant just made of a file sent in parts (a file larger than
     * {@link DirectUploads.Builder#partsAbove(long)}).
     *
     * @return the parts, or empty on a grant read back from a store, or of a file sent in one request
     */
    public Optional<SignedParts> signedParts() {
        return Optional.ofNullable(parts);
    }

    /**
     * What confirming this grant stored.
     *
     * @return the final object, or empty while the grant is not confirmed
     */
    public Optional<StoredObject> confirmedObject() {
        return Optional.ofNullable(confirmed);
    }

    /**
     * This grant with its signed request.
     *
     * @param signed the request
     * @return a copy
     */
    public UploadGrant withRequest(SignedRequest signed) {
        return new UploadGrant(id, caller, file, stagingKey, expiresAt, uploadId, form, signed, null, confirmed);
    }

    /**
     * This grant with the multipart upload its file goes in, and the signed requests of its parts.
     *
     * @param signed the upload and its parts
     * @return a copy
     */
    public UploadGrant withParts(SignedParts signed) {
        return new UploadGrant(id, caller, file, stagingKey, expiresAt, signed.uploadId(), form, null, signed,
                confirmed);
    }

    /**
     * This grant, as a store keeps it: without what is signed.
     *
     * @return a copy without its signed requests
     */
    public UploadGrant unsigned() {
        return new UploadGrant(id, caller, file, stagingKey, expiresAt, uploadId, form, null, null, confirmed);
    }

    /**
     * This grant, confirmed.
     *
     * @param stored what the confirm stored
     * @return a copy, without its signed requests (they are spent)
     */
    public UploadGrant withConfirmed(StoredObject stored) {
        return new UploadGrant(id, caller, file, stagingKey, expiresAt, uploadId, form, null, null, stored);
    }
}
