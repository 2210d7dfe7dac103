package io.github.boundedupload.direct;

import io.github.boundedupload.StoredObject;
import io.github.boundedupload.spi.UploadSigner;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/**
 * Where grants are kept between the request that asks for them and the one that confirms them: {@link InMemoryGrantStore}
 * in one JVM; rows of the application's database across a fleet. Implementations are thread-safe. Changes when what
 * {@link DirectUploads} asks of its grants changes.
 */
public interface GrantStore {

    /**
     * Adds the grants of one request, all or none: none when the caller would then hold more than
     * {@code maxOutstanding} grants that are neither confirmed nor expired at {@code now}.
     *
     * @param caller the caller key they are granted to
     * @param grants the grants, without their signed requests (with their multipart uploads' ids)
     * @param maxOutstanding the most a caller may hold
     * @param now the time the expiries are compared with
     * @return whether they were added
     */
    boolean add(String caller, List<UploadGrant> grants, int maxOutstanding, Instant now);

    /**
     * The caller's grants of the given ids; ids of another caller's grants, and unknown ids, are left out.
     *
     * @param caller the caller key
     * @param ids grant ids
     * @return the caller's grants among them, confirmed or not, in no particular order
     */
    List<UploadGrant> find(String caller, Collection<String> ids);

    /**
     * Records that grants of the caller were confirmed, and what each stored; a grant confirmed already keeps what it
     * had.
     *
     * @param caller the caller key
     * @param stored by grant id, what its confirm stored
     */
    void confirmed(String caller, Map<String, StoredObject> stored);

    /**
     * Told by {@link DirectUploads.Builder#build()} which staging prefix its grants' objects go under and how long its
     * signed requests live: a store that reconciles the prefix (removes what no grant covers any more, and aborts the
     * multipart uploads nobody completed, through the signer) learns here what to reconcile. The default does nothing.
     *
     * @param stagingPrefix the prefix of the staging keys
     * @param lifetime how long a signed request may be used
     * @param signer the signer of the grants' requests, which aborts their multipart uploads
     */
    default void serve(String stagingPrefix, Duration lifetime, UploadSigner signer) {
    }
}
