package io.github.boundedupload.spi;

import java.time.Instant;
import java.util.Objects;

/**
 * One object a storage holds, as a listing gives it ({@link FileUploader#list}): its key, its size and when it was last
 * written. Changes when a listing tells more of an object.
 *
 * @param key the key
 * @param size its size in bytes
 * @param lastModified when it was written (S3: when its upload started)
 */
public record ListedObject(String key, long size, Instant lastModified) {

    /**
     * An object as listed.
     *
     * @param key the key
     * @param size its size in bytes
     * @param lastModified when it was written
     */
    public ListedObject {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(lastModified, "lastModified");
    }
}
