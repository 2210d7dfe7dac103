package io.github.boundedupload.examples.studyweek.storage;

import io.github.boundedupload.local.LocalFileUploader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;

/**
 * Objects on the local disk, where the starter's default storage keeps them. Keys become paths only through
 * {@link LocalFileUploader#resolve(String)}, which refuses any key that would leave the storage directory. Changes when
 * how an object is read from the local disk changes.
 */
final class LocalAttachmentStore implements AttachmentStore {

    private final LocalFileUploader storage;

    LocalAttachmentStore(LocalFileUploader storage) {
        this.storage = storage;
    }

    @Override
    public InputStream open(String key) throws IOException {
        return Files.newInputStream(storage.resolve(key));
    }
}
