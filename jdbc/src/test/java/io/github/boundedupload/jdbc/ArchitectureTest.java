package io.github.boundedupload.jdbc;

import com.tngtech.archunit.core.domain.JavaClasses;
import io.github.boundedupload.testsupport.ArchitectureRules;
import java.nio.file.Path;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** This module's structure ({@link ArchitectureRules}): one writer per field, internal packages in one direction, short files. */
class ArchitectureTest {

    private static final JavaClasses CLASSES = ArchitectureRules.mainClasses("io.github.boundedupload.jdbc");

    @Test
    void oneWriterPerField() {
        ArchitectureRules.oneWriterPerField().check(CLASSES);
    }

    @Test
    void internalPackagesDependInOneDirection() {
        ArchitectureRules.internalPackagesDependInOneDirection().check(CLASSES);
    }

    @Test
    void noLongFilesButTheSettings() {
        ArchitectureRules.noLongFilesBut(Path.of("src/main/java"), Set.of("JdbcUploadJournal"));
    }
}
