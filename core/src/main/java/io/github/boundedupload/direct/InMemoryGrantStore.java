package io.github.boundedupload.direct;

import io.github.boundedupload.StoredObject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Grants in this JVM's memory: for one instance, tests and examples. Lost on restart (the staging objects of its
 * grants are then left for the bucket's lifecycle rule), and another instance of a fleet cannot confirm them. Bounded:
 * a grant is forgotten a day after it expired (confirmed or not; confirming it again is then refused), and at most
 * {@code maxGrants} are held. Changes when {@link GrantStore} changes.
 */
public final class InMemoryGrantStore implements GrantStore {

    /** Default {@code maxGrants}. */
    public static final int DEFAULT_MAX_GRANTS = 100_000;
    private static final Duration KEPT_AFTER_EXPIRY = Duration.ofDays(1);

    private final int maxGrants;
    private final Map<String, UploadGrant> grants = new HashMap<>();

    /** A store of at most {@value #DEFAULT_MAX_GRANTS} grants. */
    public InMemoryGrantStore() {
        this(DEFAULT_MAX_GRANTS);
    }

    /**
     * A store of at most {@code maxGrants} grants.
     *
     * @param maxGrants one or more: beyond it, requests for grants are refused
     */
    public InMemoryGrantStore(int maxGrants) {
        if (maxGrants < 1) {
            throw new IllegalArgumentException("maxGrants must be >= 1, was " + maxGrants);
        }
        this.maxGrants = maxGrants;
    }

    @Override
    public synchronized boolean add(String caller, List<UploadGrant> added, int maxOutstanding, Instant now) {
        grants.values().removeIf(grant -> grant.expiresAt().plus(KEPT_AFTER_EXPIRY).isBefore(now));
        if (grants.size() + added.size() > maxGrants) {
            return false;
        }
        long outstanding = grants.values().stream().filter(g -> g.caller().equals(caller) && g.confirmed() == null
                && g.expiresAt().isAfter(now)).count();
        if (outstanding + added.size() > maxOutstanding) {
            return false;
        }
        added.forEach(grant -> grants.put(grant.id(), grant));
        return true;
    }

    @Override
    public synchronized List<UploadGrant> find(String caller, Collection<String> ids) {
        List<UploadGrant> found = new ArrayList<>();
        for (String id : ids) {
            UploadGrant grant = grants.get(id);
            if (grant != null && grant.caller().equals(caller)) {
                found.add(grant);
            }
        }
        return found;
    }

    @Override
    public synchronized void confirmed(String caller, Map<String, StoredObject> stored) {
        stored.forEach((id, object) -> grants.computeIfPresent(id, (key, grant) -> grant.caller().equals(caller)
                && grant.confirmed() == null ? grant.withConfirmed(object) : grant));
    }

    @Override
    public String toString() {
        return "InMemoryGrantStore";
    }
}
