package io.github.boundedupload.jdbc;

import io.github.boundedupload.testsupport.ArchitectureContract;
import java.nio.file.Path;
import java.util.Set;

/** This module's structure: one writer per field, internal packages in one direction, short files. */
class ArchitectureTest extends ArchitectureContract {

    ArchitectureTest() {
        super("io.github.boundedupload.jdbc", Path.of("src/main/java"), Set.of("JdbcUploadJournal"));
    }
}
