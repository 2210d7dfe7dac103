package io.github.boundedupload.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * What a native image of an application needs from bounded-upload beyond what Spring finds itself: the upload
 * journal's migrations, which it reads as resources when it creates its tables (and Flyway or Liquibase read when
 * they apply them). Changes when a native image needs more of bounded-upload.
 */
class BoundedUploadRuntimeHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.resources().registerPattern("io/github/boundedupload/jdbc/flyway/*/*.sql");
        hints.resources().registerPattern("io/github/boundedupload/jdbc/liquibase/*.xml");
    }
}
