package io.github.boundedupload.benchmarks;

import io.github.boundedupload.testsupport.TestData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The files of scenarios B and C: pseudo-random content, written once under the data directory (system property
 * {@code bench.data}) and reused by every later run while their size is right. Changes when where or how the files of
 * scenarios B and C are written changes.
 */
final class DataFiles {

    private DataFiles() {
    }

    static List<Path> ensure(String set, int count, long size) {
        Path dir = Path.of(System.getProperty("bench.data", "benchmarks/target/bench-data")).resolve(set + "-" + size);
        try {
            Files.createDirectories(dir);
            List<Path> files = new ArrayList<>();
            for (int i = 0; i < count; i++) {
                Path file = dir.resolve(String.format("file-%05d.bin", i));
                if (!Files.isRegularFile(file) || Files.size(file) != size) {
                    TestData.file(file, set.hashCode() * 100_003L + i, size);
                }
                files.add(file);
            }
            return files;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The files as items, to be keyed with {@link Runs#keyed(List, String)}. */
    static List<Item> items(List<Path> files) {
        return files.stream().map(file -> Item.ofFile(file.getFileName().toString(), file)).toList();
    }
}
