package io.github.boundedupload.testsupport;

import io.github.boundedupload.local.LocalFileUploader;
import io.github.boundedupload.spi.FileUploader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.io.TempDir;

/** Core's file-system storage holds to the contract. */
class LocalFileUploaderContractTest extends FileUploaderContract {

    @TempDir
    static Path root;

    @Override
    protected FileUploader uploader() {
        try {
            return new LocalFileUploader(root);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    protected Optional<byte[]> read(String key) throws IOException {
        Path file = root.resolve(key);
        return Files.isRegularFile(file) ? Optional.of(Files.readAllBytes(file)) : Optional.empty();
    }
}
