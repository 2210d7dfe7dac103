package io.github.boundedupload.examples.studyweek.storage;

import java.io.IOException;
import java.io.InputStream;

/**
 * What the application needs from the storage besides uploading, which the uploader does (and removing, which the
 * upload journal does): reading an object back for a download. One implementation per storage, chosen by
 * the same property as the starter's storage ({@code bounded-upload.s3.bucket}). Changes when what the application
 * reads back from the storage changes.
 */
public interface AttachmentStore {

    /**
     * Opens a stored object for reading.
     *
     * @param key the storage key the uploader reported
     * @return the content; the caller closes it
     * @throws IOException when the storage cannot be read
     */
    InputStream open(String key) throws IOException;
}
