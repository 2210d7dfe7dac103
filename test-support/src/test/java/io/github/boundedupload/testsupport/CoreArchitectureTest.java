package io.github.boundedupload.testsupport;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.github.boundedupload.ConcurrentAttachmentUploader;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Core's structure ({@link ArchitectureRules}), checked here because core cannot depend on this module: one writer per
 * field, internal packages in one direction, an API and SPI that name nothing internal but the factory, short files.
 */
class CoreArchitectureTest {

    private static final JavaClasses CORE = ArchitectureRules.mainClasses("io.github.boundedupload");

    @Test
    void oneWriterPerField() {
        ArchitectureRules.oneWriterPerField().check(CORE);
    }

    @Test
    void internalPackagesDependInOneDirection() {
        ArchitectureRules.internalPackagesDependInOneDirection().check(CORE);
    }

    @Test
    void apiAndSpiNameNoInternalButTheFactory() {
        ArchitectureRules.apiNamesNoInternalBut(ConcurrentAttachmentUploader.class).check(CORE);
    }

    @Test
    void noLongFilesButTheSettings() {
        ArchitectureRules.noLongFilesBut(Path.of("../core/src/main/java"), Set.of("UploaderConfig"));
    }
}
