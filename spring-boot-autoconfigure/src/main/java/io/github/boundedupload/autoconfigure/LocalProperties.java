package io.github.boundedupload.autoconfigure;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/**
 * Settings of the local-filesystem storage, used when the application defines no storage bean. Changes when the local
 * storage gets another setting.
 */
public class LocalProperties {

    /**
     * Directory that holds every stored object, created if missing. Setting it chooses the local disk as the storage
     * (unless s3.bucket is set, which chooses S3); without either, and without a storage bean, start-up fails.
     */
    private @Nullable Path root;

    public @Nullable Path getRoot() {
        return root;
    }

    public void setRoot(@Nullable Path root) {
        this.root = root;
    }
}
