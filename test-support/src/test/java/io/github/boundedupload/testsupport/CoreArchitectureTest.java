package io.github.boundedupload.testsupport;

import io.github.boundedupload.ConcurrentAttachmentUploader;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Core's structure ({@link ArchitectureContract}), checked here because core cannot depend on this module; and its
 * API and SPI name nothing internal but the factory.
 */
class CoreArchitectureTest extends ArchitectureContract {

    CoreArchitectureTest() {
        super("io.github.boundedupload", Path.of("../core/src/main/java"), Set.of("UploaderConfig"));
    }

    @Test
    void apiAndSpiNameNoInternalButTheFactory() {
        ArchitectureRules.apiNamesNoInternalBut(ConcurrentAttachmentUploader.class).check(classes());
    }
}
