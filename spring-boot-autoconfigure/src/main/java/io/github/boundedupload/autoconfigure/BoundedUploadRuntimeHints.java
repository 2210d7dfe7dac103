package io.github.boundedupload.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What a native image of an application needs from bounded-upload beyond what Spring finds itself: the upload
 * journal's schema scripts, which it reads as resources when it creates its tables.
 */
class BoundedUploadRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.resources().registerPattern("io/github/boundedupload/jdbc/schema-*.sql");
    }
}
