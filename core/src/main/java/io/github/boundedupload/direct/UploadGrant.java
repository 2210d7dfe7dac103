package io.github.boundedupload.direct;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.SignedRequest;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The right of one caller to upload one announced file itself, once, before an expiry: an unguessable id, the staging
 * key the file goes to (never its name), and, just after it was granted, the signed request the client sends. Once
 * confirmed, what the confirm stored. Immutable. Changes when what a grant records changes.
 *
 * @param id the grant's id: random, unguessable; what the client reports back to confirm it
 * @param caller the caller key it was granted to (a user, a tenant): only that caller can confirm it
 * @param file the file as the client announced it
 * @param stagingKey where the client stores the file
 * @param expiresAt when the signed request stops being accepted
 * @param request the signed request for the client; {@code null} in grants read back from a {@link GrantStore}
 * @param confirmed what confirming it stored; {@code null} until it is confirmed
 */
public record UploadGrant(String id, String caller, FileToUpload file, String stagingKey, Instant expiresAt,
        @Nullable SignedRequest request, @Nullable StoredObject confirmed) {

    /**
     * A grant.
     *
     * @param id the grant's id
     * @param caller the caller key
     * @param file the file as announced
     * @param stagingKey where the client stores the file
     * @param expiresAt when the signed request stops being accepted
     * @param request the signed request, or {@code null}
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
     * The signed request, on a grant just made.
     *
     * @return the request, or empty on a grant read back from a store
     */
    public Optional<SignedRequest> signedRequest() {
        return Optional.ofNullable(request);
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
        return new UploadGrant(id, caller, file, stagingKey, expiresAt, signed, confirmed);
    }

    /**
     * This grant, confirmed.
     *
     * @param stored what the confirm stored
     * @return a copy, without its signed request (it is spent)
     */
    public UploadGrant withConfirmed(StoredObject stored) {
        return new UploadGrant(id, caller, file, stagingKey, expiresAt, null, stored);
    }
}
