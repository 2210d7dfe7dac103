package io.github.boundedupload.autoconfigure;

import java.util.Map;

/**
 * A check of the storage behind the uploader, for the health indicator: what the uploader's own state cannot show
 * (a storage directory that cannot be written to, a bucket that cannot be reached). Refers to no optional library.
 * Changes when what the health indicator asks of a storage changes.
 */
interface StorageCheck {

    /**
     * Which storage this is, for health and info.
     *
     * @return the storage
     */
    StorageInUse storage();

    /**
     * Checks the storage.
     *
     * @param details where to add what the check found ({@code storage}, and {@code error} when it failed)
     * @return whether the storage can be used
     */
    boolean check(Map<String, Object> details);
}
