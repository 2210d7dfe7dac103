package io.github.boundedupload.autoconfigure;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;

/** Settings of the local-filesystem storage, used when the application defines no storage bean. */
public class LocalProperties {

    /**
     * Directory that holds every stored object, created if missing. When not set, a 'bounded-upload' directory
     * in the JVM's temporary directory (java.io.tmpdir), which suits development and tests only.
     */
    private @Nullable Path root;

    public @Nullable Path getRoot() {
        return root;
    }

    public void setRoot(@Nullable Path root) {
        this.root = root;
    }
}
